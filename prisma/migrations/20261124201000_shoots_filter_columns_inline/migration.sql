-- The columns the fleet list filters and sorts on stay in the row. toast_tuple_target = 256
-- (20261122000200) was meant to move the JSONB documents out of line, but the toaster goes on
-- until a row fits in 256 bytes, so it moved search_text, metadata and some names out too: every
-- search then read three TOAST pages per shoot (a search of 100,000 shoots took 0.25-0.9 s).
-- MAIN keeps a column inline unless the row could not fit on a page otherwise.
ALTER TABLE "shoots"
  ALTER COLUMN "namespace" SET STORAGE MAIN,
  ALTER COLUMN "name" SET STORAGE MAIN,
  ALTER COLUMN "project" SET STORAGE MAIN,
  ALTER COLUMN "cloud_profile" SET STORAGE MAIN,
  ALTER COLUMN "seed" SET STORAGE MAIN,
  ALTER COLUMN "kubernetes_version" SET STORAGE MAIN,
  ALTER COLUMN "kubernetes_version_key" SET STORAGE MAIN,
  ALTER COLUMN "status_label" SET STORAGE MAIN,
  ALTER COLUMN "earliest_expiry_version" SET STORAGE MAIN,
  ALTER COLUMN "search_text" SET STORAGE MAIN;

-- Rows written before keep their out-of-line values until rewritten (an unchanged value keeps
-- its TOAST pointer, hence the no-op concatenation). PostgreSQL 17 and later say which rows have
-- such a value; on older servers every row is rewritten.
DO $$
DECLARE
  rewrite CONSTANT text := 'UPDATE "shoots" SET
      "namespace" = "namespace" || '''',
      "name" = "name" || '''',
      "project" = "project" || '''',
      "cloud_profile" = "cloud_profile" || '''',
      "seed" = "seed" || '''',
      "kubernetes_version" = "kubernetes_version" || '''',
      "kubernetes_version_key" = "kubernetes_version_key" || '''',
      "status_label" = "status_label" || '''',
      "earliest_expiry_version" = "earliest_expiry_version" || '''',
      "search_text" = "search_text" || ''''';
BEGIN
  IF current_setting('server_version_num')::int >= 170000 THEN
    EXECUTE rewrite || '
    WHERE pg_column_toast_chunk_id("namespace") IS NOT NULL
       OR pg_column_toast_chunk_id("name") IS NOT NULL
       OR pg_column_toast_chunk_id("project") IS NOT NULL
       OR pg_column_toast_chunk_id("cloud_profile") IS NOT NULL
       OR pg_column_toast_chunk_id("seed") IS NOT NULL
       OR pg_column_toast_chunk_id("kubernetes_version") IS NOT NULL
       OR pg_column_toast_chunk_id("kubernetes_version_key") IS NOT NULL
       OR pg_column_toast_chunk_id("status_label") IS NOT NULL
       OR pg_column_toast_chunk_id("earliest_expiry_version") IS NOT NULL
       OR pg_column_toast_chunk_id("search_text") IS NOT NULL';
  ELSE
    EXECUTE rewrite;
  END IF;
END
$$;
