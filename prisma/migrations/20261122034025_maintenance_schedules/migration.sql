-- CreateTable
CREATE TABLE "maintenance_schedules" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "second_of_day" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_schedules_pkey" PRIMARY KEY ("namespace","name")
);

-- CreateIndex
CREATE INDEX "maintenance_schedules_due_at_idx" ON "maintenance_schedules"("due_at");

-- AddForeignKey
ALTER TABLE "maintenance_schedules" ADD CONSTRAINT "maintenance_schedules_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
