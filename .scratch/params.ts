import { createDb, rawQuery } from "/work/main/lib/db/client.ts";
import { Prisma } from "/work/main/lib/db/generated/client.ts";
import { openDatabase } from "/work/main/lib/db/open-database.ts";
const database = await openDatabase();
const db = createDb(database.url, 2);
const N = 500;
const rows = Array.from({ length: N }, (_, i) => ({ a: `name-${i}`, b: "x".repeat(1000) + i, c: i, d: JSON.stringify({ k: "v".repeat(800), i }) }));
async function t(label: string, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) { const s = performance.now(); await fn(); times.push(performance.now() - s); }
  times.sort((x, y) => x - y); console.log(label.padEnd(30), "p50", times[10].toFixed(1), "ms");
}
for (const cols of [4, 24]) {
  const arrays = Array.from({ length: cols / 4 }, () => [rows.map((r) => r.a), rows.map((r) => r.b), rows.map((r) => r.c), rows.map((r) => r.d)]).flat();
  await t(`arrays x${cols} (tx)`, () => db.$transaction(async (tx) => tx.$queryRaw(Prisma.sql`SELECT count(*) FROM unnest(${Prisma.join(arrays.map((a, i) => Prisma.sql`${a}::${Prisma.raw(i % 4 === 2 ? "int[]" : i % 4 === 3 ? "jsonb[]" : "text[]")}`))})`)));
  await t(`arrays x${cols} (pool)`, () => rawQuery(db, Prisma.sql`SELECT count(*) FROM unnest(${Prisma.join(arrays.map((a, i) => Prisma.sql`${a}::${Prisma.raw(i % 4 === 2 ? "int[]" : i % 4 === 3 ? "jsonb[]" : "text[]")}`))})`));
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(Array.from({ length: cols / 4 }, (_, j) => [[`a${j}`, r.a], [`b${j}`, r.b], [`c${j}`, r.c], [`d${j}`, JSON.parse(r.d)]]).flat())));
  await t(`json x${cols} (tx)`, () => db.$transaction(async (tx) => tx.$queryRaw(Prisma.sql`SELECT count(*) FROM json_array_elements(${json}::json)`)));
}
await db.$disconnect(); await database.close();
