-- CreateTable
CREATE TABLE "garden_admission_rules" (
    "webhook" TEXT NOT NULL,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "garden_admission_rules_pkey" PRIMARY KEY ("webhook")
);
