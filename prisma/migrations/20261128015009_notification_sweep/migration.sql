-- CreateTable
CREATE TABLE "notification_unhealthy_shoots" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" UUID NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_unhealthy_shoots_pkey" PRIMARY KEY ("namespace","name")
);

-- CreateTable
CREATE TABLE "notification_sweep_marks" (
    "kind" TEXT NOT NULL,
    "swept_at" TIMESTAMPTZ(3) NOT NULL,
    "days" INTEGER[],

    CONSTRAINT "notification_sweep_marks_pkey" PRIMARY KEY ("kind")
);

-- CreateIndex
CREATE INDEX "maintenance_runs_state_finished_at_idx" ON "maintenance_runs"("state", "finished_at");
