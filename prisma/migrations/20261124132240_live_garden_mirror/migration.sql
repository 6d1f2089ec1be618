-- AlterTable
ALTER TABLE "cloud_profiles" ADD COLUMN     "garden_resource_version" TEXT;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "garden_resource_version" TEXT;

-- AlterTable
ALTER TABLE "seeds" ADD COLUMN     "garden_resource_version" TEXT;

-- AlterTable
ALTER TABLE "shoots" ADD COLUMN     "garden_resource_version" TEXT;

-- CreateTable
CREATE TABLE "garden_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "renewed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "garden_leases_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "garden_watch_positions" (
    "resource" TEXT NOT NULL,
    "resource_version" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "garden_watch_positions_pkey" PRIMARY KEY ("resource")
);
