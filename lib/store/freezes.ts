// Freeze periods (the freezes table) and the stored forecast items that fall inside them. A
// landscape holds a handful of freezes, so they are read whole and decided on by the engine
// (lib/engine/freezes.ts); the items are found by a range walk of shoot_forecast_items' (at, …)
// index per freeze.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { ForecastNarrowing } from "../engine/forecast-summary.ts";

export interface StoredFreeze {
  readonly id: string;
  readonly start: Date;
  readonly end: Date;
  readonly reason: string;
  readonly project: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
}

const COLUMNS = {
  id: true,
  start: true,
  end: true,
  reason: true,
  project: true,
  createdBy: true,
  createdAt: true,
} as const;

export async function insertFreeze(
  db: Queryable,
  freeze: Omit<StoredFreeze, "id" | "createdAt">,
): Promise<StoredFreeze> {
  return db.freeze.create({ data: freeze, select: COLUMNS });
}

/** The freezes that have not ended by `from` and begin before `to` (each bound optional). */
export async function listFreezes(db: Queryable, range: { from?: Date; to?: Date } = {}): Promise<StoredFreeze[]> {
  return db.freeze.findMany({
    where: {
      ...(range.from !== undefined ? { end: { gt: range.from } } : {}),
      ...(range.to !== undefined ? { start: { lt: range.to } } : {}),
    },
    select: COLUMNS,
    orderBy: [{ start: "asc" }, { id: "asc" }],
  });
}

/** How many freezes have not ended at `at`. */
export async function unendedFreezes(db: Queryable, at: Date): Promise<number> {
  return db.freeze.count({ where: { end: { gt: at } } });
}

export async function findFreeze(db: Queryable, id: string): Promise<StoredFreeze | undefined> {
  return (await db.freeze.findUnique({ where: { id }, select: COLUMNS })) ?? undefined;
}

/** Removes the freeze; answers it as it was, or undefined when there is none by that id. */
export async function deleteFreeze(db: Queryable, id: string): Promise<StoredFreeze | undefined> {
  const freeze = await findFreeze(db, id);
  if (!freeze) return undefined;
  const { count } = await db.freeze.deleteMany({ where: { id } });
  return count === 1 ? freeze : undefined;
}

/** The namespace of each named project that exists. */
export async function projectNamespaces(db: Queryable, projects: readonly string[]): Promise<Map<string, string>> {
  if (projects.length === 0) return new Map();
  const rows = await db.project.findMany({
    where: { name: { in: [...projects] } },
    select: { name: true, namespace: true },
  });
  return new Map(rows.map((r) => [r.name, r.namespace]));
}

/** A stretch of time in which forced updates are looked for, in one namespace or in all. */
export interface FrozenStretch {
  readonly from: Date;
  readonly to: Date;
  /** undefined: every namespace (a landscape-wide freeze). */
  readonly namespace?: string;
}

const inStretch = (s: FrozenStretch) =>
  Prisma.sql`(i.at >= ${s.from} AND i.at < ${s.to} ${s.namespace !== undefined ? Prisma.sql`AND i.namespace = ${s.namespace}` : Prisma.empty})`;

/**
 * The conditions on stored items i of a forced update (not a held rollout) inside any of
 * `stretches`, in `namespaces` (undefined: all), whose shoot's facts do not fail by `until`.
 */
function forcedInside(
  stretches: readonly FrozenStretch[],
  namespaces: readonly string[] | undefined,
  until: Date,
  narrowing: ForecastNarrowing,
): Prisma.Sql {
  return Prisma.sql`NOT i.held AND (i.fails_from IS NULL OR i.fails_from > ${until})
    AND (${Prisma.join(stretches.map(inStretch), " OR ")})
    ${namespaces !== undefined ? Prisma.sql`AND i.namespace = ANY(${[...namespaces]}::text[])` : Prisma.empty}
    ${narrowing.kind !== undefined ? Prisma.sql`AND i.kind = ${narrowing.kind}` : Prisma.empty}
    ${narrowing.stuck ? Prisma.sql`AND i.stuck` : Prisma.empty}
    ${narrowing.atRisk ? Prisma.sql`AND i.risk_causes IS NOT NULL` : Prisma.empty}`;
}

/**
 * The stored forced updates inside `stretches` (one freeze's, or several), in `namespaces`: how
 * many, of how many shoots, and the first `first` as JSON texts in the forecast's order.
 */
export async function forcedUpdatesInside(
  db: Queryable,
  query: {
    stretches: readonly FrozenStretch[];
    namespaces?: readonly string[];
    until: Date;
    narrowing?: ForecastNarrowing;
    first: number;
    cloudProfile?: string;
    name?: string;
    /** Also how many shoots they belong to (a distinct count: left out when only the total is asked). */
    shoots?: boolean;
  },
): Promise<{ total: number; shoots: number; items: string[] }> {
  if (query.stretches.length === 0 || (query.namespaces !== undefined && query.namespaces.length === 0))
    return { total: 0, shoots: 0, items: [] };
  const where = Prisma.sql`${forcedInside(query.stretches, query.namespaces, query.until, query.narrowing ?? {})}
    ${query.cloudProfile !== undefined ? Prisma.sql`AND i.cloud_profile = ${query.cloudProfile}` : Prisma.empty}
    ${query.name !== undefined ? Prisma.sql`AND i.name = ${query.name}` : Prisma.empty}`;
  const [counts, items] = await Promise.all([
    rawQuery<{ total: number; shoots: number }>(
      db,
      Prisma.sql`SELECT count(*)::int AS total,
          ${query.shoots === false ? Prisma.sql`0` : Prisma.sql`count(DISTINCT (i.namespace, i.name))::int`} AS shoots
        FROM shoot_forecast_items i WHERE ${where}`,
    ),
    query.first > 0
      ? rawQuery<{ item: string }>(
          db,
          Prisma.sql`SELECT i.item FROM shoot_forecast_items i WHERE ${where}
            ORDER BY i.at, i.namespace, i.name, i.seq LIMIT ${query.first}`,
        )
      : Promise.resolve([]),
  ]);
  return { total: counts[0]?.total ?? 0, shoots: counts[0]?.shoots ?? 0, items: items.map((r) => r.item) };
}
