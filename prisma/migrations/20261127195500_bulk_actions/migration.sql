-- CreateTable
CREATE TABLE "bulk_actions" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "selection" JSONB NOT NULL,
    "actor" TEXT NOT NULL,
    "identity" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Running',
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "bulk_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_action_items" (
    "bulk_action_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Pending',
    "message" TEXT,
    "changes" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_action_items_pkey" PRIMARY KEY ("bulk_action_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "bulk_actions_seq_key" ON "bulk_actions"("seq");

-- CreateIndex
CREATE INDEX "bulk_actions_actor_seq_idx" ON "bulk_actions"("actor", "seq" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "bulk_action_items_request_id_key" ON "bulk_action_items"("request_id");

-- CreateIndex
CREATE INDEX "bulk_action_items_bulk_action_id_state_position_idx" ON "bulk_action_items"("bulk_action_id", "state", "position");

-- CreateIndex
CREATE INDEX "audit_events_request_id_idx" ON "audit_events"("request_id");

-- AddForeignKey
ALTER TABLE "bulk_action_items" ADD CONSTRAINT "bulk_action_items_bulk_action_id_fkey" FOREIGN KEY ("bulk_action_id") REFERENCES "bulk_actions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
