-- A live garden's writes: the intent before the garden is asked, its outcome after (see the model).
CREATE TABLE "garden_write_intents" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "request_id" TEXT,
    "action" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "changes" JSONB NOT NULL DEFAULT '[]',
    "record_kind" TEXT,
    "record_id" UUID,
    "record" JSONB,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "garden_write_intents_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "garden_write_intents_state_created_at_idx" ON "garden_write_intents"("state", "created_at");

CREATE INDEX "garden_write_intents_namespace_name_created_at_idx" ON "garden_write_intents"("namespace", "name", "created_at" DESC);
