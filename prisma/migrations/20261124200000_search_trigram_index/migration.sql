-- The fleet's free-text filter (search_text LIKE '%word%') through a trigram index, so a search
-- does not read every shoot. pg_trgm ships with PostgreSQL (the embedded server has it) and is a
-- trusted extension, so the database's owner may create it; a server without it keeps working
-- with the scan it had before, and Almanac warns at start (lib/store/search-index.ts).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE WARNING 'pg_trgm is not available (%); the fleet search scans every shoot', SQLERRM;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX "shoots_search_text_trgm_idx" ON "shoots" USING GIN ("search_text" gin_trgm_ops);
  END IF;
END
$$;
