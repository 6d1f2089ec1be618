-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "cloud_profiles" (
    "name" TEXT NOT NULL,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cloud_profiles_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "seeds" (
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "ready" BOOLEAN NOT NULL,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seeds_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "projects" (
    "name" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "shoots" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" UUID NOT NULL,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "metadata" JSONB NOT NULL,
    "spec" JSONB NOT NULL,
    "status" JSONB NOT NULL,
    "project" TEXT NOT NULL,
    "cloud_profile" TEXT NOT NULL,
    "seed" TEXT,
    "kubernetes_version" TEXT NOT NULL,
    "kubernetes_version_key" TEXT NOT NULL,
    "status_label" TEXT NOT NULL,
    "status_rank" SMALLINT NOT NULL,
    "hibernated" BOOLEAN NOT NULL,
    "earliest_expiry" TIMESTAMPTZ(3) NOT NULL,
    "earliest_expiry_version" TEXT,
    "maintenance_second_of_day" INTEGER NOT NULL,
    "search_text" TEXT NOT NULL,
    "summary" JSONB NOT NULL,
    "listing" TEXT NOT NULL,
    "listing_valid_from" TIMESTAMPTZ(3) NOT NULL,
    "listing_valid_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shoots_pkey" PRIMARY KEY ("namespace","name")
);

-- CreateTable
CREATE TABLE "maintenance_runs" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "scheduled_for" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "changes" JSONB NOT NULL DEFAULT '[]',
    "description" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maintenance_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_kind" TEXT NOT NULL,
    "target_namespace" TEXT,
    "target_name" TEXT,
    "changes" JSONB NOT NULL DEFAULT '[]',
    "request_id" TEXT,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "projects_namespace_key" ON "projects"("namespace");

-- CreateIndex
CREATE UNIQUE INDEX "shoots_uid_key" ON "shoots"("uid");

-- CreateIndex
CREATE INDEX "shoots_name_namespace_idx" ON "shoots"("name", "namespace");

-- CreateIndex
CREATE INDEX "shoots_status_rank_namespace_name_idx" ON "shoots"("status_rank", "namespace", "name");

-- CreateIndex
CREATE INDEX "shoots_created_at_namespace_name_idx" ON "shoots"("created_at", "namespace", "name");

-- CreateIndex
CREATE INDEX "shoots_status_label_idx" ON "shoots"("status_label");

-- CreateIndex
CREATE INDEX "shoots_kubernetes_version_key_namespace_name_idx" ON "shoots"("kubernetes_version_key", "namespace", "name");

-- CreateIndex
CREATE INDEX "shoots_earliest_expiry_namespace_name_idx" ON "shoots"("earliest_expiry", "namespace", "name");

-- CreateIndex
CREATE INDEX "shoots_maintenance_second_of_day_namespace_name_idx" ON "shoots"("maintenance_second_of_day", "namespace", "name");

-- CreateIndex
CREATE INDEX "shoots_cloud_profile_kubernetes_version_idx" ON "shoots"("cloud_profile", "kubernetes_version");

-- CreateIndex
CREATE INDEX "shoots_seed_idx" ON "shoots"("seed");

-- CreateIndex
CREATE INDEX "shoots_project_idx" ON "shoots"("project");

-- CreateIndex
CREATE INDEX "maintenance_runs_namespace_name_created_at_idx" ON "maintenance_runs"("namespace", "name", "created_at" DESC);

-- CreateIndex
CREATE INDEX "maintenance_runs_state_scheduled_for_idx" ON "maintenance_runs"("state", "scheduled_for");

-- CreateIndex
CREATE INDEX "audit_events_target_kind_target_namespace_target_name_at_idx" ON "audit_events"("target_kind", "target_namespace", "target_name", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_actor_at_idx" ON "audit_events"("actor", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_events_action_at_idx" ON "audit_events"("action", "at" DESC);

-- AddForeignKey
ALTER TABLE "maintenance_runs" ADD CONSTRAINT "maintenance_runs_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
