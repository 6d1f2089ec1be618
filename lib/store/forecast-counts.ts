// The forecast's kept counts (lib/engine/forecast-counts.ts; forecast_item_counts and
// forecast_shoot_counts, kept by triggers on shoot_forecast_items), and the few items a reader
// takes one by one beside them: those of given shoots, of the last (partial) day, of failing shoots.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { ForecastItem } from "../engine/forecast.ts";
import type { CountedItem, ItemCountRow, ShootCountRow } from "../engine/forecast-counts.ts";

const profileCondition = (cloudProfile: string | undefined) =>
  cloudProfile === undefined ? Prisma.empty : Prisma.sql`AND cloud_profile = ${cloudProfile}`;

/** The kept counts of days `fromDay` (inclusive) to `toDay` (exclusive), of one cloud profile or all. */
export async function keptForecastCounts(
  db: Queryable,
  cloudProfile: string | undefined,
  fromDay: number,
  toDay: number,
): Promise<{ items: ItemCountRow[]; shoots: ShootCountRow[] }> {
  const [items, shoots] = await Promise.all([
    rawQuery<{
      day: number;
      kind: ForecastItem["kind"];
      from_version: string;
      stuck: boolean;
      held: boolean;
      risk: string;
      n: number;
    }>(
      db,
      Prisma.sql`
      SELECT day, kind, from_version, stuck, held, risk, sum(n)::int AS n FROM forecast_item_counts
      WHERE day >= ${fromDay} AND day < ${toDay} ${profileCondition(cloudProfile)}
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0`,
    ),
    rawQuery<{
      kind_filter: ShootCountRow["kindFilter"];
      stuck_only: boolean;
      risky_only: boolean;
      category: ShootCountRow["category"];
      causes: string;
      n: number;
    }>(
      db,
      Prisma.sql`
      SELECT kind_filter, stuck_only, risky_only, category, causes, sum(n)::int AS n FROM forecast_shoot_counts
      WHERE day >= ${fromDay} AND day < ${toDay} ${profileCondition(cloudProfile)}
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0`,
    ),
  ]);
  return {
    items: items.map((r) => ({
      day: r.day,
      kind: r.kind,
      fromVersion: r.from_version,
      stuck: r.stuck,
      held: r.held,
      risk: r.risk,
      n: r.n,
    })),
    shoots: shoots.map((r) => ({
      day: 0,
      kindFilter: r.kind_filter,
      stuckOnly: r.stuck_only,
      riskyOnly: r.risky_only,
      category: r.category,
      causes: r.causes,
      n: r.n,
    })),
  };
}

type ShootKey = { readonly namespace: string; readonly name: string };

/** A stored item as the counts and the answer read it. */
export interface StoredCountedItem extends CountedItem {
  readonly namespace: string;
  readonly name: string;
  readonly seq: number;
  readonly cloudProfile: string;
  readonly failsFrom: number | null;
  /** The item as the API answers it (JSON text). */
  readonly item: string;
}

/**
 * Every stored item, each shoot's in its own order, of the shoots a reader takes item by item
 * beside the kept counts: `shoots`, those with a counted item (facts that do not fail) of
 * `cloudProfile` (or any) from `from` to `to` (both inclusive), and those whose facts fail only
 * after `to` (their items are not counted). One query.
 */
export async function itemsCountedApart(
  db: Queryable,
  shoots: readonly ShootKey[],
  cloudProfile: string | undefined,
  from: number,
  to: number,
): Promise<StoredCountedItem[]> {
  const rows = await rawQuery<{
    namespace: string;
    name: string;
    seq: number;
    at: Date;
    cloud_profile: string;
    fails_from: Date | null;
    kind: ForecastItem["kind"];
    from_version: string;
    stuck: boolean;
    held: boolean;
    risk_causes: string[] | null;
    item: string;
  }>(
    db,
    Prisma.sql`
    SELECT i.namespace, i.name, i.seq, i.at, i.cloud_profile, i.fails_from, i.kind, i.from_version, i.stuck, i.held,
      i.risk_causes, i.item
    FROM (
      SELECT * FROM unnest(${shoots.map((s) => s.namespace)}::text[], ${shoots.map((s) => s.name)}::text[]) AS k(namespace, name)
      UNION
      SELECT namespace, name FROM shoot_forecast_items
      WHERE at >= ${new Date(from)} AND at <= ${new Date(to)} AND fails_from IS NULL ${profileCondition(cloudProfile)}
      UNION
      SELECT namespace, name FROM shoots WHERE forecast_fails_from > ${new Date(to)}
    ) AS k
    JOIN shoot_forecast_items i ON i.namespace = k.namespace AND i.name = k.name
    ORDER BY i.namespace, i.name, i.seq`,
  );
  return rows.map((r) => ({
    namespace: r.namespace,
    name: r.name,
    seq: r.seq,
    at: r.at.getTime(),
    cloudProfile: r.cloud_profile,
    failsFrom: r.fails_from === null ? null : r.fails_from.getTime(),
    kind: r.kind,
    fromVersion: r.from_version,
    stuck: r.stuck,
    held: r.held,
    causes: r.risk_causes === null ? null : r.risk_causes.join(","),
    item: r.item,
  }));
}

/** A marker's group: Kubernetes updates off `fromVersion` from `from` to `to` (both inclusive). */
export interface KubernetesItemGroup {
  readonly fromVersion: string;
  readonly from: number;
  readonly to: number;
}

/**
 * For each group of a cloud profile, its first `limit` stored items whose facts do not fail by
 * `end`, in the forecast's order, leaving out `excluded` shoots: one query, a walk along the
 * items' (cloud_profile, kind, from_version, at, …) index each.
 */
export async function firstKubernetesItems(
  db: Queryable,
  cloudProfile: string,
  groups: readonly KubernetesItemGroup[],
  end: number,
  excluded: readonly ShootKey[],
  limit: number,
): Promise<{ group: number; at: Date; namespace: string; name: string; seq: number; item: string }[]> {
  if (groups.length === 0) return [];
  const last = new Date(end);
  return rawQuery(
    db,
    Prisma.sql`
    SELECT g.group::int AS group, i.at, i.namespace, i.name, i.seq, i.item
    FROM unnest(${groups.map((g) => g.fromVersion)}::text[], ${groups.map((g) => new Date(g.from))}::timestamptz[],
      ${groups.map((g) => new Date(g.to))}::timestamptz[]) WITH ORDINALITY AS g(from_version, first, last, "group"),
    LATERAL (
      SELECT i.at, i.namespace, i.name, i.seq, i.item FROM shoot_forecast_items i
      WHERE i.kind = 'kubernetes' AND i.from_version = g.from_version AND i.at >= g.first AND i.at <= g.last
        AND (i.fails_from IS NULL OR i.fails_from > ${last}) AND i.cloud_profile = ${cloudProfile}
        ${
          excluded.length === 0
            ? Prisma.empty
            : Prisma.sql`AND NOT EXISTS (SELECT 1 FROM unnest(${excluded.map((s) => s.namespace)}::text[],
                ${excluded.map((s) => s.name)}::text[]) AS k(namespace, name) WHERE k.namespace = i.namespace AND k.name = i.name)`
        }
      ORDER BY i.at, i.namespace, i.name, i.seq LIMIT ${limit}) AS i
    ORDER BY 1, i.at, i.namespace, i.name, i.seq`,
  );
}
