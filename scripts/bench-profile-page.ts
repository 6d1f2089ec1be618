// The cloud profile page's four requests (what bench-scale.ts's "cloud profile page data" times
// together), each alone and together, at the sizes given: where the page's time goes.
// Usage: node scripts/bench-profile-page.ts [--sizes 2000,20000] [--runs 9]
import pg from "pg";
import { parseArgs } from "node:util";
import { ADMIN_HEADERS } from "../tests/support/api-client.ts";
import { startAlmanac } from "../tests/support/app-server.ts";
import { benchLandscape } from "./bench-landscape.ts";
import { ensureBuild } from "./next-build.mjs";

const { values } = parseArgs({
  options: { sizes: { type: "string", default: "2000,20000" }, runs: { type: "string", default: "9" } },
});
const sizes = values.sizes.split(",").map(Number);
const runs = Number(values.runs);

async function get(base: string, path: string): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { headers: { ...ADMIN_HEADERS, accept: "application/json" } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
}

async function p50(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function untilForecastFactsStored(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ waiting: number; done: number }>(
        `SELECT (SELECT count(*)::int FROM pgboss.job WHERE name = 'forecast-refresh' AND state IN ('created', 'retry', 'active')) AS waiting,
          (SELECT count(*)::int FROM pgboss.job WHERE name = 'forecast-refresh' AND state = 'completed') AS done`,
      );
      if (rows[0].waiting === 0 && rows[0].done > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await client.end();
  }
}

const COUNTED_USAGE = `
    WITH s AS MATERIALIZED (
      SELECT s.namespace, s.name, s.kubernetes_version, s.summary->'workers' AS workers
      FROM shoots s WHERE s.cloud_profile = $1),
    w AS MATERIALIZED (
      SELECT s.namespace, s.name, e->>'kubernetesVersion' AS version,
        CASE WHEN e->'image' ? 'version' THEN lower(e->'image'->>'name') || '@' || (e->'image'->>'version') END AS image
      FROM s, jsonb_array_elements(s.workers) AS e),
    v AS MATERIALIZED (
      SELECT namespace, name, kubernetes_version AS version FROM s
      UNION SELECT namespace, name, version FROM w WHERE version IS NOT NULL)
    SELECT 'shoots' AS part, NULL AS key, NULL::text[] AS versions, count(*)::int AS n FROM s
    UNION ALL SELECT 'kubernetes', version, NULL, count(*)::int FROM v GROUP BY version
    UNION ALL SELECT 'kubernetesPools', version, NULL, count(*)::int FROM w WHERE version IS NOT NULL GROUP BY version
    UNION ALL SELECT 'images', image, NULL, count(*)::int FROM w WHERE image IS NOT NULL GROUP BY image
    UNION ALL SELECT 'imageShoots', image, NULL, count(DISTINCT (namespace, name))::int FROM w
      WHERE image IS NOT NULL GROUP BY image
    UNION ALL SELECT 'sets', NULL, versions, count(*)::int FROM (
      SELECT array_agg(version ORDER BY version) AS versions FROM v GROUP BY namespace, name) AS x GROUP BY versions`;

ensureBuild();
for (const shoots of sizes) {
  const landscape = await benchLandscape("profile", shoots);
  try {
    const app = await startAlmanac({ DATABASE_URL: landscape.url, ALMANAC_ANSWER_CACHE: "off" });
    try {
      const base = app.baseUrl;
      const sample = (await get(base, "/api/v1/shoots?limit=500")) as { items: { cloudProfile: string }[] };
      const profile = sample.items[Math.floor(sample.items.length / 2)].cloudProfile;
      // The profile's own two first (they need no forecast facts), while the background pass runs.
      for (const path of [`/api/v1/cloudprofiles/${profile}`, `/api/v1/cloudprofiles/${profile}/usage`])
        console.log(`  ${(await p50(() => get(base, path))).toFixed(1)} ms  ${path} (during the forecast pass)`);
      await untilForecastFactsStored(landscape.url);
      const forecast = `/api/v1/forecast?days=365&cloudProfile=${profile}`;
      const paths = [
        `/api/v1/cloudprofiles/${profile}`,
        `/api/v1/cloudprofiles/${profile}/usage`,
        `${forecast}&limit=25&summary=true&markers=true`,
        `${forecast}&stuck=true&limit=50`,
      ];
      const client = new pg.Client({ connectionString: landscape.url });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM shoots WHERE cloud_profile = $1`, [profile]);
      console.log(`${shoots} shoots, profile ${profile} (${rows[0].n} shoots):`);
      // The usage as it was counted before the kept counts (every shoot's workers), in SQL alone.
      const before = await p50(() => client.query(COUNTED_USAGE, [profile]));
      console.log(`  ${before.toFixed(1)} ms  the usage counted over the shoots (SQL alone, before)`);
      const kept = `SELECT part, key, sum(count)::int AS n FROM cloud_profile_usage_counts WHERE cloud_profile = $1 AND namespace = '' GROUP BY part, key ORDER BY part, key`;
      console.log(`  ${(await p50(() => client.query(kept, [profile]))).toFixed(1)} ms  the kept usage (SQL alone)`);
      const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${kept}`, [profile]);
      console.log(plan.rows.map((r: Record<string, string>) => `    ${r["QUERY PLAN"]}`).join("\n"));
      // What the seed's insert triggers did in all: every shoot's uses, grouped.
      const start = performance.now();
      await client.query(`SELECT count(*) FROM (SELECT s.cloud_profile, s.namespace, u.part, u.key, count(*)
        FROM shoots s, almanac_shoot_usage(s.kubernetes_version, s.summary->'workers') u GROUP BY 1, 2, 3, 4) x`);
      console.log(
        `  ${(performance.now() - start).toFixed(0)} ms  every shoot's uses counted (the seed triggers' work)`,
      );
      await client.end();
      for (const path of paths)
        console.log(`  ${await p50(() => get(base, path)).then((ms) => ms.toFixed(1), String)} ms  ${path}`);
      const together = await p50(() => Promise.all(paths.map((path) => get(base, path))));
      console.log(`  ${together.toFixed(1)} ms  the four together`);
    } finally {
      await app.stop();
    }
  } finally {
    await landscape.drop();
  }
}
