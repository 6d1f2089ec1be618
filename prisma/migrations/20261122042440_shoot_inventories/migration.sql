-- CreateTable
CREATE TABLE "shoot_inventories" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "document" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shoot_inventories_pkey" PRIMARY KEY ("namespace","name")
);

-- AddForeignKey
ALTER TABLE "shoot_inventories" ADD CONSTRAINT "shoot_inventories_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
