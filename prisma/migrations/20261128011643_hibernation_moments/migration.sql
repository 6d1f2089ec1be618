-- CreateTable
CREATE TABLE "hibernation_moments" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hibernation_moments_pkey" PRIMARY KEY ("namespace","name")
);

-- CreateIndex
CREATE INDEX "hibernation_moments_due_at_idx" ON "hibernation_moments"("due_at");

-- AddForeignKey
ALTER TABLE "hibernation_moments" ADD CONSTRAINT "hibernation_moments_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
