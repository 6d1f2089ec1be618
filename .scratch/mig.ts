import { openDatabase } from "/work/main/lib/db/open-database.ts";
import { migrate } from "/work/main/lib/db/migrate.ts";
import pg from "pg";
const database = await openDatabase();
const t = performance.now();
console.log(await migrate(database.url), ((performance.now() - t) / 1000).toFixed(1), "s");
const c = new pg.Client({ connectionString: database.url }); await c.connect();
console.log((await c.query(`SELECT count(*) FILTER (WHERE pg_column_toast_chunk_id(name) IS NOT NULL) nm, count(*) FILTER (WHERE pg_column_toast_chunk_id(search_text) IS NOT NULL) st FROM shoots`)).rows);
await c.end(); await database.close();
