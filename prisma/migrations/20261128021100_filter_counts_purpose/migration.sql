-- The fleet list's purpose filter (20261128010506) counted from the kept counts as a project, a
-- profile or a seed is: shoot_filter_counts keeps the purpose too (Gardener's default,
-- "evaluation", for a shoot without spec.purpose, as shoots_purpose_idx has it), so the total of
-- purpose=production is a sum over a few hundred rows instead of a count of the shoots it selects
-- (at 100,000 shoots some 40,000 rows, each a visit to its heap page: the index holds an
-- expression, so no index-only count). A purpose is one of five, so the rows grow at most
-- fivefold, and a project's shoots mostly share a few. The triggers are as before
-- (20261127201000: the forecast facts' stores skipped), with the purpose in the key.

TRUNCATE "shoot_filter_counts";
ALTER TABLE "shoot_filter_counts" DROP CONSTRAINT "shoot_filter_counts_pkey";
ALTER TABLE "shoot_filter_counts" ADD COLUMN "purpose" TEXT NOT NULL;
ALTER TABLE "shoot_filter_counts" ADD CONSTRAINT "shoot_filter_counts_pkey"
  PRIMARY KEY ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose");

CREATE OR REPLACE FUNCTION "almanac_count_shoot_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "moved" bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND "almanac_only_forecast_facts"() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose", "shoots")
      SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
        coalesce("seed", ''), coalesce("spec"->>'purpose', 'evaluation'), count(*)
      FROM "added" GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose", "shoots")
      SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
        coalesce("seed", ''), coalesce("spec"->>'purpose', 'evaluation'), -count(*)
      FROM "removed" GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
  ELSE
    INSERT INTO "shoot_filter_counts" AS c ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose", "shoots")
      SELECT "namespace", "project", "cloud_profile", "ncp", "kubernetes_version", "seed", "purpose", sum("d") FROM (
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", '') AS "ncp",
          "kubernetes_version", coalesce("seed", '') AS "seed", coalesce("spec"->>'purpose', 'evaluation') AS "purpose",
          1 AS "d" FROM "added"
        UNION ALL
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
          coalesce("seed", ''), coalesce("spec"->>'purpose', 'evaluation'), -1 FROM "removed"
      ) AS "changes" GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum("d") <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose")
        DO UPDATE SET "shoots" = c."shoots" + EXCLUDED."shoots";
  END IF;
  GET DIAGNOSTICS "moved" = ROW_COUNT;
  IF "moved" = 0 THEN
    RETURN NULL;
  END IF;
  DELETE FROM "shoot_filter_counts"
    WHERE "shoots" = 0
      AND ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose") IN (
        SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
          coalesce("seed", ''), coalesce("spec"->>'purpose', 'evaluation') FROM "removed");
  RETURN NULL;
END
$$;

-- The shoots already there.
INSERT INTO "shoot_filter_counts" ("namespace", "project", "cloud_profile", "namespaced_cloud_profile", "kubernetes_version", "seed", "purpose", "shoots")
  SELECT "namespace", "project", "cloud_profile", coalesce("namespaced_cloud_profile", ''), "kubernetes_version",
    coalesce("seed", ''), coalesce("spec"->>'purpose', 'evaluation'), count(*)
  FROM "shoots" GROUP BY 1, 2, 3, 4, 5, 6, 7;
