-- CreateTable
CREATE TABLE "control_plane_migrations" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "flow" JSONB NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "control_plane_migrations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "control_plane_migrations_namespace_name_created_at_idx" ON "control_plane_migrations"("namespace", "name", "created_at" DESC);

-- CreateIndex
CREATE INDEX "control_plane_migrations_state_idx" ON "control_plane_migrations"("state");

-- AddForeignKey
ALTER TABLE "control_plane_migrations" ADD CONSTRAINT "control_plane_migrations_namespace_name_fkey" FOREIGN KEY ("namespace", "name") REFERENCES "shoots"("namespace", "name") ON DELETE CASCADE ON UPDATE CASCADE;
