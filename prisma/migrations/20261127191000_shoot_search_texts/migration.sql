-- Each shoot's search text again, in a narrow row of its own with its own trigram index, kept by
-- the database as shoots are inserted, updated and deleted (both gardens' writes are statements on
-- shoots). A search must confirm every match the trigram index finds in its row: a shoot's row is
-- some 470 bytes (16 to a page), this one some 200 (40), so counting up to 5,001 matches of a
-- common word (lib/store/shoot-page.ts startSearchPage) reads half the pages or fewer: at
-- 100,000 shoots "card" read 3,610 pages of shoots, 2,547 here, in half the time ("prod eu":
-- 1,349 and 686). The text changes only with a shoot's names, versions, seed or profile, so most
-- writes (status, forecast facts) leave these rows, and their index, alone.

-- CreateTable
CREATE TABLE "shoot_search_texts" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "search_text" TEXT NOT NULL,

    CONSTRAINT "shoot_search_texts_pkey" PRIMARY KEY ("namespace","name")
);

CREATE FUNCTION "almanac_add_search_texts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shoot_search_texts" ("namespace", "name", "search_text")
    SELECT "namespace", "name", "search_text" FROM "added";
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_remove_search_texts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shoot_search_texts" t USING "removed" r WHERE t."namespace" = r."namespace" AND t."name" = r."name";
  RETURN NULL;
END
$$;

-- Row by row, and only for the rows whose text (or key) changed: the trigger's WHEN is evaluated
-- without calling a function, and an UPDATE that sets none of these columns (the forecast's
-- facts) does not fire it at all.
CREATE FUNCTION "almanac_change_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "shoot_search_texts" SET "namespace" = NEW."namespace", "name" = NEW."name", "search_text" = NEW."search_text"
    WHERE "namespace" = OLD."namespace" AND "name" = OLD."name";
  RETURN NULL;
END
$$;

CREATE FUNCTION "almanac_no_search_texts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shoot_search_texts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "shoots_search_texts_inserted" AFTER INSERT ON "shoots"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_add_search_texts"();

CREATE TRIGGER "shoots_search_texts_deleted" AFTER DELETE ON "shoots"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "almanac_remove_search_texts"();

CREATE TRIGGER "shoots_search_texts_updated" AFTER UPDATE OF "namespace", "name", "search_text" ON "shoots"
  FOR EACH ROW
  WHEN (OLD."search_text" IS DISTINCT FROM NEW."search_text" OR OLD."namespace" <> NEW."namespace" OR OLD."name" <> NEW."name")
  EXECUTE FUNCTION "almanac_change_search_text"();

CREATE TRIGGER "shoots_search_texts_truncated" AFTER TRUNCATE ON "shoots"
  FOR EACH STATEMENT EXECUTE FUNCTION "almanac_no_search_texts"();

-- The shoots already there.
INSERT INTO "shoot_search_texts" ("namespace", "name", "search_text") SELECT "namespace", "name", "search_text" FROM "shoots";

-- The trigram index moves here from the shoots (20261124200000), only where the server has
-- pg_trgm: every write of a shoot that is not a HOT update (its forecast facts, its status, both
-- gardens') put some 40 trigrams of an unchanged text into the shoots' index, and every search read
-- the pending list they filled; here only a changed text does. Its pending list is as small as
-- theirs was (20261127160000), so the rare writes never leave a search much to read.
DROP INDEX IF EXISTS "shoots_search_text_trgm_idx";
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX "shoot_search_texts_trgm_idx" ON "shoot_search_texts" USING GIN ("search_text" gin_trgm_ops)
      WITH (gin_pending_list_limit = 64);
  END IF;
END
$$;
