-- The search's trigram index takes new entries into a pending list (GIN's fastupdate) that every
-- search reads in full, and that grows to 4 MB by default before it is merged: while the worker
-- rewrites shoots (their forecast facts), a search read hundreds of pending pages, and the planner,
-- counting them, turned to reading every shoot (24 ms instead of 6 ms for "card" at 20,000 shoots).
-- A 64 kB list (the least allowed) is merged as often as that fills, so a search reads a few pages.
-- Only where the index is (the server has pg_trgm).
DO $$
BEGIN
  IF to_regclass('shoots_search_text_trgm_idx') IS NOT NULL THEN
    ALTER INDEX "shoots_search_text_trgm_idx" SET (gin_pending_list_limit = 64);
  END IF;
END
$$;
