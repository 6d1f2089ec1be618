-- The live mirror rewrites a cloud profile's shoots' derived columns in batches after the change;
-- rows mirrored before this were rewritten in the change's own transaction, so they are current.
ALTER TABLE "cloud_profiles" ADD COLUMN "shoots_columns_version" INTEGER;
UPDATE "cloud_profiles" SET "shoots_columns_version" = "resource_version";

-- Mark and sweep of a streamed list: the keys the list under way has seen.
CREATE TABLE "garden_list_marks" (
    "resource" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "garden_list_marks_pkey" PRIMARY KEY ("resource","namespace","name")
);
