import pg from "pg";
import { openDatabase } from "/work/main/lib/db/open-database.ts";
const database = await openDatabase();
const c = new pg.Client({ connectionString: database.url }); await c.connect();
for (const q of [
  "SELECT to_regclass('shoots_search_text_trgm_idx')",
  "SELECT count(*) FROM shoots",
  "EXPLAIN (ANALYZE, BUFFERS) SELECT count(*)::int FROM shoots WHERE search_text LIKE '%stream-ingest%'",
  "EXPLAIN (ANALYZE, BUFFERS) SELECT namespace, name, listing FROM shoots WHERE search_text LIKE '%stream-ingest%' ORDER BY name, namespace, name LIMIT 50",
  "SELECT avg(length(search_text))::int, max(length(search_text)) FROM shoots",
  "SELECT pg_size_pretty(pg_relation_size('shoots')), pg_size_pretty(pg_total_relation_size('shoots'))",
]) { const r = await c.query(q); console.log(q.slice(0, 60)); for (const row of r.rows) console.log("  ", Object.values(row).join(" | ")); }
await c.end(); await database.close();
