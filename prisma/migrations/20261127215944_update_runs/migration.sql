-- CreateTable
CREATE TABLE "update_runs" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "name" TEXT NOT NULL,
    "target" JSONB NOT NULL,
    "healthy_seconds" INTEGER,
    "actor" TEXT NOT NULL,
    "identity" JSONB NOT NULL,
    "projects" TEXT[],
    "state" TEXT NOT NULL DEFAULT 'Pending',
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "message" TEXT,
    "expected_end" TIMESTAMPTZ(3),

    CONSTRAINT "update_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "update_run_stages" (
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "when" TEXT NOT NULL,
    "soak_seconds" INTEGER NOT NULL,
    "approval" BOOLEAN NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Pending',
    "started_at" TIMESTAMPTZ(3),
    "acted_at" TIMESTAMPTZ(3),
    "gate_started_at" TIMESTAMPTZ(3),
    "soak_until" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "approved_by" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "holding" JSONB,

    CONSTRAINT "update_run_stages_pkey" PRIMARY KEY ("run_id","position")
);

-- CreateTable
CREATE TABLE "update_run_items" (
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "stage" INTEGER NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Pending',
    "message" TEXT,
    "changes" JSONB NOT NULL DEFAULT '[]',
    "due_at" TIMESTAMPTZ(3),
    "healthy_since" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "update_run_items_pkey" PRIMARY KEY ("run_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "update_runs_seq_key" ON "update_runs"("seq");

-- CreateIndex
CREATE INDEX "update_runs_actor_seq_idx" ON "update_runs"("actor", "seq" DESC);

-- CreateIndex
CREATE INDEX "update_runs_state_idx" ON "update_runs"("state");

-- CreateIndex
CREATE UNIQUE INDEX "update_run_items_request_id_key" ON "update_run_items"("request_id");

-- CreateIndex
CREATE INDEX "update_run_items_run_id_stage_state_idx" ON "update_run_items"("run_id", "stage", "state");

-- CreateIndex
CREATE INDEX "update_run_items_namespace_name_idx" ON "update_run_items"("namespace", "name");

-- AddForeignKey
ALTER TABLE "update_run_stages" ADD CONSTRAINT "update_run_stages_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "update_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "update_run_items" ADD CONSTRAINT "update_run_items_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "update_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
