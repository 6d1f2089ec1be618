-- CreateTable
CREATE TABLE "freezes" (
    "id" UUID NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "project" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "freezes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "freezes_end_start_idx" ON "freezes"("end", "start");
