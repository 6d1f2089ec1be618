-- How many shoots each namespace holds per status label and earliest expiry moment, kept by the
-- database as shoots are inserted, updated and deleted, on both gardens alike (the simulated
-- garden's writes and the live garden's mirror are statements on shoots): the fleet page's tiles
-- (lib/store/shoot-tile-counts.ts) sum these rows instead of counting every shoot. A version's
-- expiry is one moment shared by every shoot that uses it, so the moments are few, and "expiring
-- within 30 days" (which moves with the clock) is a range of this key.

-- CreateTable
CREATE TABLE "shoot_tile_counts" (
    "namespace" TEXT NOT NULL,
    "status_label" TEXT NOT NULL,
    "earliest_expiry" TIMESTAMPTZ(3) NOT NULL,
    "shoots" INTEGER NOT NULL,

    CONSTRAINT "shoot_tile_counts_pkey" PRIMARY KEY ("namespace","status_label","earliest_expiry")
);

-- Each statement adds what it brought and takes away what it removed (an update both, and only
-- where that changes a count: most updates change neither the label nor the expiry), in key
-- order, so two statements meeting the same rows lock them in the same order. Rows that reach
-- zero go, so the table holds only what the shoots are.
CREATE FUNCTION "almanac_tally_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "moved" bigint;
BEGIN
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

CREATE FUNCTION "almanac_tally_no_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shoot_tile_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoots_tally_inserted" AFTER INSERT ON "shoots"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_tally_shoots"();

-- Transition tables allow no column list (AFTER UPDATE OF ...), so it runs after every update,
-- and finds nothing to change unless a label or an expiry moved.
CREATE TRIGGER "shoots_tally_updated" AFTER UPDATE ON "shoots"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_tally_shoots"();

CREATE TRIGGER "shoots_tally_deleted" AFTER DELETE ON "shoots"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_tally_shoots"();

CREATE TRIGGER "shoots_tally_truncated" AFTER TRUNCATE ON "shoots"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_tally_no_shoots"();

-- The shoots already there.
INSERT INTO "shoot_tile_counts" ("namespace", "status_label", "earliest_expiry", "shoots")
  SELECT "namespace", "status_label", "earliest_expiry", count(*) FROM "shoots" GROUP BY 1, 2, 3;
