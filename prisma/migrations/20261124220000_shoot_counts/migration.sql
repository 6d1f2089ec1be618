-- How many shoots each namespace holds, kept by the database as shoots are inserted and deleted
-- (lib/store/shoot-counts.ts): the fleet list's total for the whole landscape, or for the
-- namespaces a caller may read, is then a sum over a few rows instead of a count of every shoot
-- on every page (at 100,000 shoots the count took more of the database than the page itself).
-- A shoot never moves to another namespace (it is part of its key), so updates need no trigger.

-- CreateTable
CREATE TABLE "shoot_counts" (
    "namespace" TEXT NOT NULL,
    "shoots" INTEGER NOT NULL,

    CONSTRAINT "shoot_counts_pkey" PRIMARY KEY ("namespace")
);

-- In namespace order, so two statements meeting the same namespaces lock them in the same order.
CREATE FUNCTION "almanac_count_inserted_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shoot_counts" ("namespace", "shoots")
    SELECT "namespace", count(*) FROM "inserted" GROUP BY "namespace" ORDER BY "namespace"
    ON CONFLICT ("namespace") DO UPDATE SET "shoots" = "shoot_counts"."shoots" + EXCLUDED."shoots";
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_count_deleted_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shoot_counts" ("namespace", "shoots")
    SELECT "namespace", -count(*) FROM "deleted" GROUP BY "namespace" ORDER BY "namespace"
    ON CONFLICT ("namespace") DO UPDATE SET "shoots" = "shoot_counts"."shoots" + EXCLUDED."shoots";
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_count_no_shoots"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shoot_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoots_count_inserted" AFTER INSERT ON "shoots"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_inserted_shoots"();

CREATE TRIGGER "shoots_count_deleted" AFTER DELETE ON "shoots"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_deleted_shoots"();

CREATE TRIGGER "shoots_count_truncated" AFTER TRUNCATE ON "shoots"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_count_no_shoots"();

-- The shoots already there.
INSERT INTO "shoot_counts" ("namespace", "shoots") SELECT "namespace", count(*) FROM "shoots" GROUP BY "namespace";
