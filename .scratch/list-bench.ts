import { createDb } from "/work/main/lib/db/client.ts";
import { openDatabase } from "/work/main/lib/db/open-database.ts";
import { listShoots, parseListShootsParams } from "/work/main/lib/server/list-shoots.ts";
const database = await openDatabase();
const db = createDb(database.url, 4);
for (const q of ["", "q=prod", "q=stream-ingest", "q=1.31", "q=eu%20prod", "q=zzzz", "q=stream-ingest&sort=-name", "q=ml&sort=expiry", "status=unhealthy", "sort=expiry", "q=garden-ml"]) {
  const times: number[] = []; let total = 0;
  for (let i = 0; i < 25; i++) {
    const t = performance.now();
    const page = await listShoots(db, parseListShootsParams(new URLSearchParams(q)), Date.now());
    total = page.total; times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(q.padEnd(28), "total", String(total).padStart(6), "p50", times[12].toFixed(1).padStart(6), "p96", times[24].toFixed(1).padStart(6));
}
await db.$disconnect(); await database.close();
