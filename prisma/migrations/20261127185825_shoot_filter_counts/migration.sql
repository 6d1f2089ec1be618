-- How many shoots each namespace holds per project, cloud profile, NamespacedCloudProfile ("" for
-- none), control-plane Kubernetes version and seed ("" for none), kept by the database as shoots
-- are inserted, updated and deleted, on both gardens alike: the fleet list's total for a project,
-- a cloud profile, a seed or a classification (the (profile, version) pairs that have it at the
-- read moment: expiration dates pass, so it is never kept itself) is a sum over a few hundred
-- rows (lib/store/shoot-filter-counts.ts) instead of a count of every shoot it selects (at
-- 100,000 shoots, 45,000 rows for one profile). Kept as shoot_tile_counts is: a statement moves
-- its count rows in key order, an update only where a key changed, rows that reach 0 go.

-- CreateTable
CREATE TABLE "shoot_filter_counts" (
    "namespace" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "cloud_profile" TEXT NOT NULL,
    "namespaced_cloud_profile" TEXT NOT NULL,
    "kubernetes_version" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "shoots" INTEGER NOT NULL,

    CONSTRAINT "shoot_filter_counts_pkey" PRIMARY KEY ("namespace","project","cloud_profile","namespaced_cloud_profile","kubernetes_version","seed")
);

CREATE FUNCTION "almanac_count_shoot_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "moved" bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "shoots")
      SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
        coalesce("seed", ''), count(*)
      FROM "added" GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "shoots")
      SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
        coalesce("seed", ''), -count(*)
      FROM "removed" GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
  ELSE
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "shoots")
      SELECT "namespace", "project", "cloud_profile", "ncp", "kubernetes_version", "seed", sum("d") FROM (
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", '') AS "ncp",
          "kubernetes_version", coalesce("seed", '') AS "seed", 1 AS "d" FROM "added"
        UNION ALL
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
          coalesce("seed", ''), -1 FROM "removed"
      ) AS "changes" GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum("d") <> 0 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
  END IF;
  GET DIAGNOSTICS "moved" = ROW_COUNT;
  IF "moved" = 0 THEN
    RETURN NULL;
  END IF;
  DELETE FROM "shoot_filter_counts"
    WHERE "shoots" = 0
      AND ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed") IN (
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
          coalesce("seed", '') FROM "removed");
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_count_no_shoot_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shoot_filter_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoots_filter_counts_inserted" AFTER INSERT ON "shoots"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_shoot_filters"();

-- Transition tables allow no column list (AFTER UPDATE OF ...), so it runs after every update,
-- and finds nothing to change unless one of the keys moved.
CREATE TRIGGER "shoots_filter_counts_updated" AFTER UPDATE ON "shoots"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_shoot_filters"();

CREATE TRIGGER "shoots_filter_counts_deleted" AFTER DELETE ON "shoots"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_shoot_filters"();

CREATE TRIGGER "shoots_filter_counts_truncated" AFTER TRUNCATE ON "shoots"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_no_shoot_filters"();

-- The shoots already there.
INSERT INTO "shoot_filter_counts" ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "shoots")
  SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
    coalesce("seed", ''), count(*)
  FROM "shoots" GROUP BY 1, 2, 3, 4, 5, 6;
