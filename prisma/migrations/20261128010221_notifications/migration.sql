-- CreateTable
CREATE TABLE "notification_subscriptions" (
    "id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "name" TEXT,
    "url" TEXT,
    "secret" TEXT,
    "email_to" TEXT,
    "digest" TEXT NOT NULL DEFAULT 'each',
    "kinds" TEXT[],
    "days" INTEGER[] DEFAULT ARRAY[7, 1]::INTEGER[],
    "project" TEXT,
    "shoot_namespace" TEXT,
    "shoot_name" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_events" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "until" TIMESTAMPTZ(3),
    "projects" TEXT[],
    "shoot_namespace" TEXT,
    "shoot_name" TEXT,
    "days" INTEGER,
    "summary" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status" INTEGER,
    "error" TEXT,
    "response" TEXT,

    CONSTRAINT "notification_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_subscriptions_project_idx" ON "notification_subscriptions"("project");

-- CreateIndex
CREATE UNIQUE INDEX "notification_events_key_key" ON "notification_events"("key");

-- CreateIndex
CREATE INDEX "notification_events_until_idx" ON "notification_events"("until");

-- CreateIndex
CREATE INDEX "notification_deliveries_state_next_attempt_at_idx" ON "notification_deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "notification_deliveries_subscription_id_created_at_idx" ON "notification_deliveries"("subscription_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "notification_deliveries_event_id_idx" ON "notification_deliveries"("event_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_deliveries_subscription_id_event_id_key" ON "notification_deliveries"("subscription_id", "event_id");

-- CreateIndex
CREATE INDEX "notification_attempts_delivery_id_at_idx" ON "notification_attempts"("delivery_id", "at");

-- AddForeignKey
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "notification_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "notification_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "notification_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
