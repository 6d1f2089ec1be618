import pg from "pg";
import { openDatabase } from "/work/main/lib/db/open-database.ts";
const database = await openDatabase();
const c = new pg.Client({ connectionString: database.url }); await c.connect();
for (const q of process.argv.slice(2)) { if (q.startsWith("EXPLAIN")) await c.query(q.replace(/^EXPLAIN \(ANALYZE, BUFFERS\) /, "")); const r = await c.query(q); for (const row of r.rows) console.log("  ", Object.values(row).join(" | ")); }
await c.end(); await database.close();
