-- The fleet list's filter counts (20261127185825) skip the forecast facts' stores as the tile and
-- usage counts do (20261127190000): storeForecastFacts's transaction says its updates of shoots
-- write only the forecast_* columns, which this count does not count, so pairing both transition
-- tables of a 1,000-row update to find no key moved is work for nothing. Every other write counts
-- as before.

CREATE OR REPLACE FUNCTION "almanac_count_shoot_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "moved" bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND "almanac_only_forecast_facts"() THEN
    RETURN NULL;
  END IF;
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
