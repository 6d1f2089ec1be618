// The fleet list's purpose and label filters on real Postgres: the rows and counts they select are
// exactly the shoots Kubernetes' selector semantics (lib/engine/label-selector.ts) and Gardener's
// purposes (unset is evaluation) select, in every place the filter is read (a page walked with
// cursors, the sorted page of few matches, the count, the tiles), and the indexes apply.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import { SHOOT_SORTS } from "../../lib/api/shoot-sorts.ts";
import { matchLabelSelector } from "../../lib/engine/label-selector.ts";
import { asLabelSelector, parseLabelSelector } from "../../lib/engine/label-selector-string.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { listShoots, MATCHES_COUNTED } from "../../lib/server/list-shoots.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { countFleet, countShoots, listShootPage, type ShootFilter } from "../../lib/store/shoot-page.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const PURPOSES = ["production", "development", "evaluation", undefined, "testing", "infrastructure"];
const TEAMS = ["a", "b", "c"];

/** Deterministic purposes and labels: every combination of env, team, tier and legacy occurs. */
function labelled(shoots: Shoot[]): Shoot[] {
  return shoots.map((s, i) => {
    const labels: Record<string, string> = { ...(s.metadata.labels ?? {}) };
    if (i % 4 !== 3) labels.env = i % 2 === 0 ? "prod" : "dev";
    labels.team = TEAMS[i % 3];
    if (i % 5 === 0) labels.legacy = "true";
    if (i % 7 < 3) labels.tier = i % 7 === 0 ? "web" : "db";
    if (i % 6 === 1) labels["example.com/region"] = "";
    const spec = { ...s.spec };
    const purpose = PURPOSES[i % PURPOSES.length];
    if (purpose === undefined) delete spec.purpose;
    else spec.purpose = purpose;
    // One shoot without any label at all: the negations select it.
    return { ...s, metadata: { ...s.metadata, labels: i === 11 ? undefined : labels }, spec };
  });
}

let database: TestDatabase;
let shoots: Shoot[];

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 30);
  shoots = labelled(landscape.shoots);
  await seedLandscape(database.db, { ...landscape, shoots }, { actor: "test", now });
});

afterAll(async () => {
  await database?.drop();
});

const requirements = (text: string) => {
  const parsed = parseLabelSelector(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.requirements;
};

/** What the filter must select, in the engine's terms. */
function expected(purposes: string[] | undefined, selector: string | undefined): string[] {
  return shoots
    .filter((s) => !purposes || purposes.includes(s.spec.purpose ?? "evaluation"))
    .filter((s) => {
      if (selector === undefined) return true;
      const match = matchLabelSelector(asLabelSelector(requirements(selector)), s.metadata.labels ?? {});
      return match.ok && match.matches;
    })
    .map((s) => s.metadata.name)
    .sort();
}

/** Every row the filter selects, page by page (4 a page, so the cursors are used). */
async function walked(filter: ShootFilter, sort: (typeof SHOOT_SORTS)[number], fewMatches: boolean) {
  const names: string[] = [];
  let after: readonly [string, string, string] | undefined;
  for (;;) {
    const rows = await listShootPage(database.db, {
      filter,
      sort,
      descending: false,
      limit: 4,
      now: new Date(),
      origin: 0,
      after,
      fewMatches,
    });
    names.push(...rows.map((r) => r.name));
    if (rows.length < 4) return names.sort();
    const last = rows[rows.length - 1];
    after = [last.sortKey, last.namespace, last.name];
  }
}

const CASES: [string[] | undefined, string | undefined][] = [
  [["production"], undefined],
  [["evaluation"], undefined],
  [["development", "testing"], undefined],
  [undefined, "env=prod"],
  [undefined, "env==dev"],
  [undefined, "tier!=web"],
  [undefined, "team in (a,c)"],
  [undefined, "team notin (a,c)"],
  [undefined, "legacy"],
  [undefined, "!legacy"],
  [undefined, "example.com/region"],
  [undefined, "example.com/region="],
  [undefined, "env=prod,tier!=web,team in (a,b),!legacy"],
  [undefined, "env in (prod),env notin (prod)"],
  [["production", "evaluation"], "!env"],
];

describe("purpose and label filters", () => {
  it("select exactly the shoots Gardener's purposes and Kubernetes' selectors select, and count them", async () => {
    for (const [purposes, selector] of CASES) {
      const filter: ShootFilter = { purposes, labels: selector === undefined ? undefined : requirements(selector) };
      const want = expected(purposes, selector);
      const what = `${purposes?.join(",") ?? "-"} / ${selector ?? "-"}`;
      // Some select a few, none all or (but one, on purpose) nothing: the cases say something.
      if (selector !== "env in (prod),env notin (prod)") expect(want.length, what).toBeGreaterThan(0);
      expect(want.length, what).toBeLessThan(shoots.length);
      for (const sort of ["name", "status", "nextMaintenance"] as const) {
        expect(await walked(filter, sort, false), `${what} by ${sort}`).toEqual(want);
      }
      expect(await walked(filter, "name", true), `${what}, few matches`).toEqual(want);
      expect(await countShoots(database.db, filter), what).toBe(want.length);
      expect(await countShoots(database.db, { ...filter, project: "dev" }), what).toBe(want.length);
      expect((await countFleet(database.db, filter, {}, [])).total, what).toBe(want.length);
    }
  });

  it("count a selector's matches (with a purpose or without) up to a bound: exactly within it, as more than it past it", async () => {
    const names = (items: readonly string[]) => items.map((item) => (JSON.parse(item) as { name: string }).name);
    /** Every page of the list's answer, following its cursors, and each page's total. */
    const allPages = async (query: Record<string, string>, bound: number) => {
      const seen: string[] = [];
      const totals: { total: number; totalBounded?: true }[] = [];
      let cursor: string | undefined;
      do {
        const params = listShootsParams.parse({ ...query, limit: "4", ...(cursor ? { cursor } : {}) });
        const page = await listShoots(database.db, params, Date.now(), undefined, bound);
        seen.push(...names(page.items));
        totals.push({ total: page.total, ...(page.totalBounded ? { totalBounded: page.totalBounded } : {}) });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return { seen, totals };
    };
    for (const [purposes, selector] of CASES) {
      if (selector === undefined) continue;
      const want = expected(purposes, selector);
      if (want.length < 2) continue;
      const query = { labels: selector, ...(purposes ? { purpose: purposes.join(",") } : {}) };
      const what = JSON.stringify(query);
      // Within the bound (the server's, and one exactly as large): the exact count, not marked.
      for (const bound of [MATCHES_COUNTED, want.length]) {
        const { seen, totals } = await allPages(query, bound);
        expect([...seen].sort(), what).toEqual(want);
        expect(totals[0], `${what} within ${bound}`).toEqual({ total: want.length });
      }
      // Past it: the bound, marked as exceeded (the page shows "more than"), and still every match.
      const { seen, totals } = await allPages(query, want.length - 1);
      expect([...seen].sort(), what).toEqual(want);
      expect(totals[0], what).toEqual({ total: want.length - 1, totalBounded: true });
    }
  });

  it("can be answered through the indexes", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // With few rows the planner rightly prefers a scan; forbidding it shows the indexes apply.
      await client.query("BEGIN; SET LOCAL enable_seqscan = off");
      const plan = async (where: string) =>
        (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT name FROM shoots WHERE ${where}`)).rows
          .map((r) => r["QUERY PLAN"])
          .join("\n");
      expect(await plan(`coalesce(spec->>'purpose', 'evaluation') = 'production'`)).toContain("shoots_purpose_idx");
      expect(await plan(`(metadata->'labels') @> '{"env":"prod"}'::jsonb`)).toContain("shoots_labels_idx");
      expect(await plan(`(metadata->'labels') ? 'legacy'`)).toContain("shoots_labels_idx");
      await client.query("ROLLBACK");
    } finally {
      await client.end();
    }
  });
});
