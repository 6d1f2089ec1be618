-- CreateTable
CREATE TABLE "shoot_deletions" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "flow" JSONB NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "shoot_deletions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "shoot_deletions_namespace_name_created_at_idx" ON "shoot_deletions"("namespace", "name", "created_at" DESC);
