// `node scripts/bench-notify-sweep.ts [--runs R]`: the notification events' sweep on the database
// `npm start` uses (ALMANAC_DATA_DIR or DATABASE_URL; seed it first, e.g. `npm run seed -- --shoots
// 100000`). It computes the forecast facts the worker's refresh would (unless --no-refresh), subscribes
// the whole landscape to every kind (thresholds 7 and 1), then sweeps: the first sweep records what
// the fleet holds, the next R (default 5) find nothing new. Prints each kind's milliseconds per
// sweep and, last, one JSON line: the first sweep's and the median of the others per kind.
import { parseArgs } from "node:util";
import { NOTIFICATION_KINDS } from "../lib/api/notifications.ts";
import { exitOnBadConfig } from "../lib/config/load-config.ts";
import { createDb } from "../lib/db/client.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openDatabase } from "../lib/db/open-database.ts";
import { refreshForecasts } from "../lib/jobs/forecast-refresh.ts";
import { type SweepReport, sweepNotificationEvents } from "../lib/server/notification-events-sweep.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, "no-refresh": { type: "boolean", default: false } },
});
const runs = Number(values.runs);
exitOnBadConfig();
const database = await openDatabase();
await migrate(database.url);
const db = createDb(database.url, 6);
try {
  const shoots = await db.shoot.count();
  const started = Date.now();
  // --no-refresh: the facts as they are (shoots whose facts are stale are left out, as a sweep does).
  const computed = values["no-refresh"] ? 0 : await refreshForecasts(db, Date.now(), 1000);
  console.log(`${shoots} shoots; forecast facts computed for ${computed} in ${Date.now() - started} ms`);
  await db.notificationSubscription.deleteMany({ where: { createdBy: "bench-notify-sweep" } });
  await db.notificationSubscription.create({
    data: {
      channel: "webhook",
      url: "http://127.0.0.1:9/bench",
      secret: "bench-secret-0123456789",
      kinds: [...NOTIFICATION_KINDS],
      days: [7, 1],
      enabled: true,
      createdBy: "bench-notify-sweep",
    },
  });
  const reports: { total: number; report: SweepReport }[] = [];
  for (let i = 0; i <= runs; i++) {
    const t = Date.now();
    const report = await sweepNotificationEvents(db, Date.now());
    reports.push({ total: Date.now() - t, report });
    const kinds = Object.entries(report.kinds)
      .map(([k, v]) => `${k} ${v.ms} ms (${v.found} found, ${v.recorded} new)`)
      .join("; ");
    console.log(`sweep ${i}: ${Date.now() - t} ms, ${report.recorded} recorded: ${kinds}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const later = reports.slice(1);
  const perKind = Object.fromEntries(
    Object.keys(reports[0]!.report.kinds).map((k) => [
      k,
      {
        firstMs: reports[0]!.report.kinds[k as keyof SweepReport["kinds"]]!.ms,
        unchangedMs: median(later.map((r) => r.report.kinds[k as keyof SweepReport["kinds"]]?.ms ?? 0)),
        found: reports[0]!.report.kinds[k as keyof SweepReport["kinds"]]!.found,
      },
    ]),
  );
  console.log(
    JSON.stringify({
      shoots,
      firstSweepMs: reports[0]!.total,
      unchangedSweepMs: median(later.map((r) => r.total)),
      kinds: perKind,
    }),
  );
} finally {
  await db.$disconnect();
  await database.close();
}
