-- NamespacedCloudProfiles (a project's extension of a CloudProfile), and which one a shoot names.
-- CreateTable
CREATE TABLE "namespaced_cloud_profiles" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "parent" TEXT NOT NULL,
    "resource_version" INTEGER NOT NULL DEFAULT 1,
    "document" JSONB NOT NULL,
    "garden_resource_version" TEXT,
    "shoots_columns_version" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "namespaced_cloud_profiles_pkey" PRIMARY KEY ("namespace","name")
);

-- CreateIndex
CREATE INDEX "namespaced_cloud_profiles_parent_idx" ON "namespaced_cloud_profiles"("parent");

-- AlterTable
ALTER TABLE "shoots" ADD COLUMN     "namespaced_cloud_profile" TEXT;

-- Shoots stored before named their NamespacedCloudProfile as if it were a CloudProfile: they now
-- wait for it (cloud_profile "" until it is mirrored and their columns are written again).
UPDATE "shoots" SET "namespaced_cloud_profile" = "spec"->'cloudProfile'->>'name', "cloud_profile" = ''
WHERE "spec"->'cloudProfile'->>'kind' = 'NamespacedCloudProfile';
