-- The forecast's counts kept per cloud profile and UTC day (lib/engine/forecast-counts.ts defines
-- them; lib/store/forecast-counts.ts reads them): the fleet's and a cloud profile's forecast summary
-- and markers become sums over a few thousand rows instead of aggregates over every stored item
-- (some 200,000 for a year at 100,000 shoots). Triggers on shoot_forecast_items keep them, so every
-- writer is covered alike: storeForecastFacts (the read path and the background refresh, on both
-- gardens), a shoot's deletion (its items go by the foreign key's cascade) and a truncate.
-- A statement always writes or deletes ALL of a shoot's items (storeForecastFacts deletes them,
-- then inserts the new ones), so a shoot's "first item" counts can be taken from the statement's
-- rows alone. Items of shoots whose facts fail (fails_from set) are not counted: the reader takes
-- those few per item.

-- CreateTable
CREATE TABLE "forecast_item_counts" (
    "cloud_profile" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "from_version" TEXT NOT NULL,
    "stuck" BOOLEAN NOT NULL,
    "held" BOOLEAN NOT NULL,
    "risk" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "forecast_item_counts_pkey" PRIMARY KEY ("cloud_profile","day","kind","from_version","stuck","held","risk")
);

-- CreateTable
CREATE TABLE "forecast_shoot_counts" (
    "cloud_profile" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind_filter" TEXT NOT NULL,
    "stuck_only" BOOLEAN NOT NULL,
    "risky_only" BOOLEAN NOT NULL,
    "category" TEXT NOT NULL,
    "causes" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "forecast_shoot_counts_pkey" PRIMARY KEY ("cloud_profile","day","kind_filter","stuck_only","risky_only","category","causes")
);

-- CreateIndex
CREATE INDEX "shoot_forecast_items_cloud_profile_at_namespace_name_seq_idx" ON "shoot_forecast_items"("cloud_profile", "at", "namespace", "name", "seq");

-- CreateIndex
CREATE INDEX "shoot_forecast_items_cloud_profile_stuck_at_namespace_name__idx" ON "shoot_forecast_items"("cloud_profile", "stuck", "at", "namespace", "name", "seq");

-- CreateIndex
CREATE INDEX "shoot_forecast_items_cloud_profile_kind_from_version_at_nam_idx" ON "shoot_forecast_items"("cloud_profile", "kind", "from_version", "at", "namespace", "name", "seq");

-- The items already there are counted as they are put back once the triggers are in place.
CREATE TEMPORARY TABLE "items_before" AS SELECT * FROM "shoot_forecast_items";
DELETE FROM "shoot_forecast_items";

-- What the statement's rows (its transition table: old ones times -1, new ones times 1) add to the
-- counts.
-- Transition tables are seen only by the trigger's own function, hence the dynamic SQL here.
CREATE FUNCTION "almanac_count_forecast_items"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "rows" TEXT;
  "sign" INTEGER;
BEGIN
  -- One writer of counts at a time (an advisory lock until the transaction ends): a write of facts
  -- (a DELETE of a shoot's items, then an INSERT: two statements) and a shoot's deletion (its items
  -- cascade) meet the same hot rows, and row locks taken in two steps could deadlock.
  PERFORM pg_advisory_xact_lock(1181696884); -- "FoCt"
  FOR "rows", "sign" IN SELECT * FROM (VALUES ('old_items', -1), ('new_items', 1)) AS v(r, s)
    WHERE (v.s = -1 AND TG_OP IN ('DELETE', 'UPDATE')) OR (v.s = 1 AND TG_OP IN ('INSERT', 'UPDATE'))
  LOOP
    EXECUTE format($sql$
      INSERT INTO "forecast_item_counts" AS c ("cloud_profile", "day", "kind", "from_version", "stuck", "held", "risk", "n")
      SELECT "cloud_profile", floor(extract(epoch FROM "at") * 1000 / 86400000)::int,
        "kind", CASE WHEN "kind" = 'kubernetes' THEN "from_version" ELSE '' END, "stuck", "held",
        CASE WHEN "risk_causes" IS NULL THEN '' ELSE '+' || array_to_string("risk_causes", ',') END, %s * count(*)
      FROM %I WHERE "fails_from" IS NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("cloud_profile", "day", "kind", "from_version", "stuck", "held", "risk")
      DO UPDATE SET "n" = c."n" + EXCLUDED."n"$sql$, "sign", "rows");
    EXECUTE format($sql$
      INSERT INTO "forecast_shoot_counts" AS c
        ("cloud_profile", "day", "kind_filter", "stuck_only", "risky_only", "category", "causes", "n")
      SELECT "cloud_profile", floor(extract(epoch FROM "first") * 1000 / 86400000)::int,
        "kind_filter", "stuck_only", "risky_only", "category", "causes", %s * count(*)
      FROM (
        SELECT i."namespace", i."name", i."cloud_profile", f."kind_filter", f."stuck_only", f."risky_only", f."category",
          CASE WHEN f."risky_only" THEN array_to_string(i."risk_causes", ',') ELSE '' END AS "causes", min(i."at") AS "first"
        FROM %I i
        JOIN (SELECT k, s, r, c FROM unnest(ARRAY['', 'kubernetes', 'machineImage']) k, unnest(ARRAY[false, true]) s,
            unnest(ARRAY[false, true]) r, unnest(ARRAY['forced', 'held', 'stuck', 'any']) c) AS f("kind_filter", "stuck_only", "risky_only", "category")
          ON (f."kind_filter" = '' OR f."kind_filter" = i."kind") AND (NOT f."stuck_only" OR i."stuck")
            AND (NOT f."risky_only" OR i."risk_causes" IS NOT NULL)
            AND CASE f."category" WHEN 'forced' THEN NOT i."held" WHEN 'held' THEN i."held" WHEN 'stuck' THEN i."stuck" ELSE true END
        WHERE i."fails_from" IS NULL
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) AS firsts
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ("cloud_profile", "day", "kind_filter", "stuck_only", "risky_only", "category", "causes")
      DO UPDATE SET "n" = c."n" + EXCLUDED."n"$sql$, "sign", "rows");
  END LOOP;
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_count_no_forecast_items"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "forecast_item_counts";
  DELETE FROM "forecast_shoot_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoot_forecast_items_count_inserted" AFTER INSERT ON "shoot_forecast_items"
  REFERENCING NEW TABLE AS "new_items" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_forecast_items"();

CREATE TRIGGER "shoot_forecast_items_count_deleted" AFTER DELETE ON "shoot_forecast_items"
  REFERENCING OLD TABLE AS "old_items" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_forecast_items"();

-- Items are never updated (a shoot's key does not change); should one be, it moves its counts.
CREATE TRIGGER "shoot_forecast_items_count_updated" AFTER UPDATE ON "shoot_forecast_items"
  REFERENCING OLD TABLE AS "old_items" NEW TABLE AS "new_items" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_forecast_items"();

CREATE TRIGGER "shoot_forecast_items_count_truncated" AFTER TRUNCATE ON "shoot_forecast_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_no_forecast_items"();

INSERT INTO "shoot_forecast_items" SELECT * FROM "items_before";
DROP TABLE "items_before";
