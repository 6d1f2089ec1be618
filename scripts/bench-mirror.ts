// `npm run bench:mirror`: a live garden of N shoots (the demo landscape's, served by the stand-in
// Kubernetes API server of the tests) mirrored into a throwaway PostgreSQL: the time of the first
// sync (list and write everything), then the time from a change in the garden until its row shows
// it, as a median of several changes. Options: --shoots N (default 2000), --changes N (20).
import { KubeConfig } from "@kubernetes/client-node";
import { parseArgs } from "node:util";
import { createDb } from "../lib/db/client.ts";
import { startTemporaryPostgres } from "../lib/db/embedded-postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { generateLandscape } from "../lib/demo/landscape.ts";
import { startGardenMirror } from "../lib/garden/kubernetes/garden-mirror.ts";
import { putLandscape } from "../tests/support/garden-landscape.ts";
import { startStandInGarden } from "../tests/support/stand-in-garden.ts";

const { values } = parseArgs({
  options: { shoots: { type: "string", default: "2000" }, changes: { type: "string", default: "20" } },
});
const shoots = Number(values.shoots);
const changes = Number(values.changes);

const garden = await startStandInGarden({ bookmarkIntervalMs: 1_000 });
const postgres = await startTemporaryPostgres();
await migrate(postgres.url);
const db = createDb(postgres.url, 6);
try {
  const landscape = generateLandscape({ now: Date.now(), shoots });
  putLandscape(garden, landscape);

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig());
  const started = performance.now();
  const mirror = startGardenMirror(db, kubeConfig, { log: () => {}, leaseMs: 15_000 });
  await mirror.synced();
  const syncMs = performance.now() - started;
  const rows = await db.shoot.count();

  const lags: number[] = [];
  for (let i = 0; i < changes; i++) {
    const target = landscape.shoots[(i * 7919) % landscape.shoots.length];
    const label = `change-${i}`;
    const sent = performance.now();
    garden.update("Shoot", target.metadata.namespace, target.metadata.name, (s) => {
      s.metadata.labels = { ...s.metadata.labels, bench: label };
    });
    for (;;) {
      const row = await db.shoot.findUnique({
        where: { namespace_name: { namespace: target.metadata.namespace ?? "", name: target.metadata.name } },
        select: { metadata: true },
      });
      if ((row?.metadata as { labels?: Record<string, string> } | undefined)?.labels?.bench === label) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    lags.push(performance.now() - sent);
  }
  lags.sort((a, b) => a - b);
  await mirror.stop();
  console.log(
    `First sync of ${rows} shoots: ${(syncMs / 1000).toFixed(1)} s (${Math.round(rows / (syncMs / 1000))} shoots/s)`,
  );
  console.log(
    `A change in the garden to its row: median ${lags[Math.floor(lags.length / 2)].toFixed(0)} ms, max ${lags[lags.length - 1].toFixed(0)} ms`,
  );
  console.log(
    JSON.stringify({
      shoots: rows,
      firstSyncMs: Math.round(syncMs),
      changeMedianMs: Math.round(lags[Math.floor(lags.length / 2)]),
    }),
  );
} finally {
  await db.$disconnect();
  await postgres.stop();
  await garden.close();
}
