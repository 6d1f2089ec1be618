-- The background pass (and a forecast read's write-back) stores the forecast's facts with one
-- UPDATE of shoots per 1,000 shoots that sets only the forecast_* columns, which no kept count
-- counts. Statement triggers with transition tables cannot be limited to columns (no AFTER
-- UPDATE OF ...), so the tile and usage triggers read both transition tables whole to find that
-- nothing they count changed: the usage trigger pairs every row before and after and reads each
-- summary's pools (some 30-70 ms of a batch's store). storeForecastFacts says, for its own
-- transaction only (set_config(..., true)), that its updates of shoots write nothing else, and
-- these two triggers then skip them. Every other write (both gardens' writers, the mirror, seed
-- COPY, deletions, truncate) runs them as before.

CREATE OR REPLACE FUNCTION "almanac_only_forecast_facts"() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('almanac.writes_only_forecast_facts', true), '') = 'on'
$$;

CREATE OR REPLACE FUNCTION "almanac_tally_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "moved" bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND "almanac_only_forecast_facts"() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "shoot_tile_counts" ("namespace", "status_label", "earliest_expiry", "shoots")
      SELECT "namespace", "status_label", "earliest_expiry", count(*) FROM "added" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("namespace", "status_label", "earliest_expiry")
        DO UPDATE SET "shoots" = "shoot_tile_counts"."shoots" + EXCLUDED."shoots";
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "shoot_tile_counts" ("namespace", "status_label", "earliest_expiry", "shoots")
      SELECT "namespace", "status_label", "earliest_expiry", -count(*) FROM "removed" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("namespace", "status_label", "earliest_expiry")
        DO UPDATE SET "shoots" = "shoot_tile_counts"."shoots" + EXCLUDED."shoots";
  ELSE
    INSERT INTO "shoot_tile_counts" ("namespace", "status_label", "earliest_expiry", "shoots")
      SELECT "namespace", "status_label", "earliest_expiry", sum("d") FROM (
        SELECT "namespace", "status_label", "earliest_expiry", 1 AS "d" FROM "added"
        UNION ALL
        SELECT "namespace", "status_label", "earliest_expiry", -1 AS "d" FROM "removed"
      ) AS "changes" GROUP BY 1, 2, 3 HAVING sum("d") <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("namespace", "status_label", "earliest_expiry")
        DO UPDATE SET "shoots" = "shoot_tile_counts"."shoots" + EXCLUDED."shoots";
  END IF;
  GET DIAGNOSTICS "moved" = ROW_COUNT;
  IF "moved" = 0 THEN
    RETURN NULL;
  END IF;
  DELETE FROM "shoot_tile_counts"
    WHERE "shoots" = 0
      AND ("namespace", "status_label", "earliest_expiry") IN (SELECT "namespace", "status_label", "earliest_expiry" FROM "removed");
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION "almanac_count_updated_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF "almanac_only_forecast_facts"() THEN
    RETURN NULL;
  END IF;
  PERFORM "almanac_add_profile_usage"((
    WITH changed AS (
      SELECT o.cloud_profile AS old_profile, o.namespace AS old_namespace, o.kubernetes_version AS old_version,
        o.summary->'workers' AS old_workers, n.cloud_profile AS new_profile, n.namespace AS new_namespace,
        n.kubernetes_version AS new_version, n.summary->'workers' AS new_workers
      FROM "before" o FULL JOIN "after" n ON n.namespace = o.namespace AND n.name = o.name
      WHERE o.name IS NULL OR n.name IS NULL
        OR (o.cloud_profile, o.kubernetes_version, o.summary->'workers')
          IS DISTINCT FROM (n.cloud_profile, n.kubernetes_version, n.summary->'workers')),
    uses AS (
      SELECT c.old_profile AS cloud_profile, c.old_namespace AS namespace, u.part, u.key, -1 AS sign
        FROM changed c, "almanac_shoot_usage"(c.old_version, c.old_workers) u WHERE c.old_namespace IS NOT NULL
      UNION ALL
      SELECT c.new_profile, c.new_namespace, u.part, u.key, 1
        FROM changed c, "almanac_shoot_usage"(c.new_version, c.new_workers) u WHERE c.new_namespace IS NOT NULL)
    SELECT jsonb_agg(x) FROM (
      SELECT cloud_profile, namespace, part, key, sum(sign)::int AS count FROM uses
      GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0) x));
  RETURN NULL;
END
$$;
