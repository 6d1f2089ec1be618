// `node scripts/bench-fleet-filter.ts [--shoots N] [--runs R]`: the fleet list's purpose and label
// filters at N shoots (default 100,000): the first page and its total (GET /api/v1/shoots's use
// case, as the server answers it) for purpose=production, a common label (env=prod), a rarer one
// (app=checkout), a negation and purpose with labels, p50/p99 of R runs each (default 40). Each
// is measured with the filter's indexes (shoots_purpose_idx, shoots_labels_idx) and then without
// them, on the same database, so the two are comparable on a shared machine; the plans are
// printed. --url reuses a database seeded before (seeding 100,000 shoots takes minutes).
import { parseArgs } from "node:util";
import pg from "pg";
import { listShootsParams } from "../lib/api/operations/shoots.ts";
import { createDb } from "../lib/db/client.ts";
import { migrate } from "../lib/db/migrate.ts";
import { listShoots } from "../lib/server/list-shoots.ts";
import { benchLandscape } from "./bench-landscape.ts";

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "100000" },
    runs: { type: "string", default: "40" },
    // A database seeded before (by an earlier run), migrated to this checkout's schema first.
    url: { type: "string" },
  },
});
const shoots = Number(values.shoots);
const runs = Number(values.runs);

const QUERIES = [
  "purpose=production",
  "labels=env%3Dprod",
  "labels=app%3Dcheckout",
  "labels=env%21%3Dprod",
  "purpose=production&labels=app+in+(checkout,ledger)",
  "purpose=production&sort=status",
];

const percentile = (xs: readonly number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const landscape = values.url
  ? await migrate(values.url).then(() => ({ url: values.url!, drop: async () => {} }))
  : await benchLandscape("filter", shoots);
const db = createDb(landscape.url, 4);
const admin = new pg.Client({ connectionString: landscape.url });
await admin.connect();
try {
  await admin.query("ANALYZE shoots");
  const measure = async (label: string) => {
    console.log(`\n${label}`);
    for (const query of QUERIES) {
      const params = listShootsParams.parse(Object.fromEntries(new URLSearchParams(query)));
      const times: number[] = [];
      let total = "";
      for (let i = 0; i < runs + 1; i++) {
        const t = performance.now();
        const page = await listShoots(db, params, Date.now());
        // The first run warms the caches (profiles, buffers); it is not counted.
        if (i >= 1) times.push(performance.now() - t);
        // A bounded total (a selector's, past MATCHES_COUNTED) is "more than" it.
        total = `${page.totalBounded ? ">" : ""}${page.total}`;
      }
      console.log(
        `${decodeURIComponent(query).padEnd(50)} total ${total.padStart(6)}  p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms`,
      );
    }
  };
  const explain = async (where: string) => {
    const { rows } = await admin.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT count(*) FROM shoots WHERE ${where}`,
    );
    console.log(`  ${where}\n${rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}`);
  };
  const plans = async () => {
    await explain(`coalesce(spec->>'purpose', 'evaluation') = 'production'`);
    await explain(`(metadata->'labels') @> '{"env":"prod"}'::jsonb`);
  };

  const create = `CREATE INDEX IF NOT EXISTS "shoots_purpose_idx" ON "shoots" ((coalesce("spec"->>'purpose', 'evaluation')), "name", "namespace");
    CREATE INDEX IF NOT EXISTS "shoots_labels_idx" ON "shoots" USING gin (("metadata"->'labels')); ANALYZE shoots`;
  await admin.query(create);
  await measure("with the filter's indexes (migration 20261128021000) and the purpose kept (20261128021100)");
  await plans();
  await admin.query("DROP INDEX shoots_purpose_idx; DROP INDEX shoots_labels_idx; ANALYZE shoots");
  await measure("without the indexes");
  await plans();
  await admin.query(create);
} finally {
  await admin.end();
  await db.$disconnect();
  await landscape.drop();
}
