import pg from "pg";
import { openDatabase } from "/work/main/lib/db/open-database.ts";
const database = await openDatabase();
const c = new pg.Client({ connectionString: database.url }); await c.connect();
const cols = "namespace, name, resource_version, listing, summary, earliest_expiry, earliest_expiry_version, maintenance_second_of_day";
async function time(label: string, sql: string) {
  const t: number[] = [];
  for (let i = 0; i < 12; i++) { const s = performance.now(); await c.query(sql); t.push(performance.now() - s); }
  t.sort((a, b) => a - b); console.log(label.padEnd(50), "p50", t[6].toFixed(1), "max", t[11].toFixed(1));
}
for (const w of ["stream-ingest", "prod", "1.31", "cluster-10"]) {
  await time(`plain ${w}`, `SELECT ${cols} FROM shoots WHERE search_text LIKE '%${w}%' ORDER BY name, namespace LIMIT 50`);
  await time(`cte ${w}`, `WITH m AS MATERIALIZED (SELECT ${cols} FROM shoots WHERE search_text LIKE '%${w}%') SELECT * FROM m ORDER BY name, namespace LIMIT 50`);
  await time(`cte-keys ${w}`, `WITH m AS MATERIALIZED (SELECT namespace, name FROM shoots WHERE search_text LIKE '%${w}%' ORDER BY name, namespace LIMIT 50) SELECT ${cols} FROM shoots JOIN m USING (namespace, name) ORDER BY name, namespace`);
  await time(`count ${w}`, `SELECT count(*) FROM shoots WHERE search_text LIKE '%${w}%'`);
}
await time("default page", `SELECT ${cols} FROM shoots ORDER BY name, namespace LIMIT 50`);
await time("count all", `SELECT count(*) FROM shoots`);
await c.end(); await database.close();
