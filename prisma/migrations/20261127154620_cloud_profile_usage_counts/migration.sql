-- What the shoots of each cloud profile run (the counts of GET /api/v1/cloudprofiles/{name}/usage,
-- lib/ui/profile-usage.ts says what each means), kept by the database as shoots are inserted,
-- updated and deleted, on both gardens (the simulated garden's writes and the live garden's
-- mirror batches alike): the page's usage is then a read of a few rows of its profile however many
-- shoots there are (counted from every shoot's workers it took over a second at 100,000 shoots).
-- Per namespace, for callers who may read only some, and under namespace "" over all of them.

-- CreateTable
CREATE TABLE "cloud_profile_usage_counts" (
    "cloud_profile" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "part" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "cloud_profile_usage_counts_pkey" PRIMARY KEY ("cloud_profile","namespace","part","key")
);

-- What one shoot adds to its profile's counts, one row per thing counted (a pool's version or
-- image once per pool, a shoot's versions and images once per shoot): its control plane's version
-- and its stored summary's worker pools, read exactly as the counting query read them before.
CREATE FUNCTION "almanac_shoot_usage"("kubernetes_version" TEXT, "workers" JSONB)
RETURNS TABLE ("part" TEXT, "key" TEXT) LANGUAGE sql IMMUTABLE AS $$
  WITH w AS (
    SELECT e->>'kubernetesVersion' AS version,
      CASE WHEN e->'image' ? 'version' THEN lower(e->'image'->>'name') || '@' || (e->'image'->>'version') END AS image
    FROM jsonb_array_elements(coalesce(workers, '[]'::jsonb)) AS e),
  v AS (SELECT kubernetes_version AS version UNION SELECT version FROM w WHERE version IS NOT NULL)
  SELECT 'shoots', ''
  UNION ALL SELECT 'kubernetes', version FROM v
  UNION ALL SELECT 'kubernetesPools', version FROM w WHERE version IS NOT NULL
  UNION ALL SELECT 'images', image FROM w WHERE image IS NOT NULL
  UNION ALL (SELECT DISTINCT 'imageShoots', image FROM w WHERE image IS NOT NULL)
  UNION ALL SELECT 'sets', array_to_json(array_agg(version ORDER BY version))::text FROM v
$$;

-- Adds `changes` ([{cloud_profile, namespace, part, key, count}], counts to add, never 0) to the
-- namespaces' counts and to the totals (namespace ""), in key order so that two statements meeting
-- the same counts lock them in the same order; removes the counts that reach 0.
CREATE FUNCTION "almanac_add_profile_usage"("changes" JSONB) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF changes IS NULL THEN RETURN; END IF;
  WITH c AS (
    SELECT * FROM jsonb_to_recordset(changes) AS x(cloud_profile TEXT, namespace TEXT, part TEXT, key TEXT, count INTEGER)),
  everywhere AS (
    SELECT cloud_profile, namespace, part, key, count FROM c
    UNION ALL SELECT cloud_profile, '', part, key, sum(count)::int FROM c GROUP BY cloud_profile, part, key)
  INSERT INTO "cloud_profile_usage_counts" ("cloud_profile", "namespace", "part", "key", "count")
    SELECT * FROM everywhere WHERE count <> 0 ORDER BY cloud_profile, namespace, part, key
    ON CONFLICT ("cloud_profile", "namespace", "part", "key")
    DO UPDATE SET "count" = "cloud_profile_usage_counts"."count" + EXCLUDED."count";
  DELETE FROM "cloud_profile_usage_counts" u
    USING jsonb_to_recordset(changes) AS c(cloud_profile TEXT, namespace TEXT, part TEXT, key TEXT)
    WHERE u."count" = 0 AND u."cloud_profile" = c.cloud_profile AND u."namespace" IN (c.namespace, '')
      AND u."part" = c.part AND u."key" = c.key;
END
$$;

CREATE FUNCTION "almanac_count_inserted_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "almanac_add_profile_usage"((
    SELECT jsonb_agg(x) FROM (
      SELECT s.cloud_profile, s.namespace, u.part, u.key, count(*)::int AS count
      FROM "inserted" s, "almanac_shoot_usage"(s.kubernetes_version, s.summary->'workers') u
      GROUP BY 1, 2, 3, 4) x));
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_count_deleted_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "almanac_add_profile_usage"((
    SELECT jsonb_agg(x) FROM (
      SELECT s.cloud_profile, s.namespace, u.part, u.key, -count(*)::int AS count
      FROM "deleted" s, "almanac_shoot_usage"(s.kubernetes_version, s.summary->'workers') u
      GROUP BY 1, 2, 3, 4) x));
  RETURN NULL;
END
$$;

-- Only the rows whose profile, control plane version or worker pools changed count (most writes
-- change a shoot's status or forecast, not what it runs): their old uses out, their new ones in.
-- One join pairs each row before with itself after (a row that leaves or enters the profile's
-- counts has no partner only if its key changed): reading each summary's pools once per side.
CREATE FUNCTION "almanac_count_updated_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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

CREATE FUNCTION "almanac_count_no_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "cloud_profile_usage_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoots_usage_inserted" AFTER INSERT ON "shoots"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_inserted_usage"();

CREATE TRIGGER "shoots_usage_updated" AFTER UPDATE ON "shoots"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_updated_usage"();

CREATE TRIGGER "shoots_usage_deleted" AFTER DELETE ON "shoots"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_deleted_usage"();

CREATE TRIGGER "shoots_usage_truncated" AFTER TRUNCATE ON "shoots"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_no_usage"();

-- The shoots already there.
SELECT "almanac_add_profile_usage"((
  SELECT jsonb_agg(x) FROM (
    SELECT s.cloud_profile, s.namespace, u.part, u.key, count(*)::int AS count
    FROM "shoots" s, "almanac_shoot_usage"(s.kubernetes_version, s.summary->'workers') u
    GROUP BY 1, 2, 3, 4) x));
