// Shoots in Postgres: the Gardener document (metadata, spec, status as JSONB) plus derived columns.
// Every function takes the transaction (or client) it runs in, so a use case can write the
// change and its audit event atomically.
import type { Shoot } from "../../gardener/types.ts";
import { GARDENER_API_VERSION } from "../../gardener/types.ts";
import { Prisma } from "../../db/generated/client.ts";
import { type Queryable, rawQuery, type Tx } from "../../db/client.ts";
import { NEVER, type ShootColumns, type ShootSummary } from "./shoot-columns.ts";

export interface StoredShoot {
  readonly shoot: Shoot;
  readonly resourceVersion: number;
}

interface DocumentRow {
  namespace: string;
  name: string;
  uid: string;
  resource_version: number;
  metadata: Shoot["metadata"];
  spec: Shoot["spec"];
  status: Shoot["status"];
}

/** The API shape: resourceVersion lives in metadata, as a string, as in Kubernetes. */
function toStored(row: DocumentRow): StoredShoot {
  return {
    resourceVersion: row.resource_version,
    shoot: {
      apiVersion: GARDENER_API_VERSION,
      kind: "Shoot",
      metadata: { ...row.metadata, name: row.name, namespace: row.namespace, uid: row.uid, resourceVersion: String(row.resource_version) },
      spec: row.spec,
      status: row.status ?? {},
    },
  };
}

function storedMetadata(shoot: Shoot): Prisma.InputJsonObject {
  const { resourceVersion: _rv, ...metadata } = shoot.metadata;
  return metadata as Prisma.InputJsonObject;
}

/** One shoot; with `forUpdate` the row stays locked until the transaction ends. */
export async function findShoot(tx: Queryable, namespace: string, name: string, forUpdate = false): Promise<StoredShoot | undefined> {
  const lock = forUpdate ? Prisma.sql`FOR UPDATE` : Prisma.empty;
  const rows = await tx.$queryRaw<DocumentRow[]>`
    SELECT namespace, name, uid::text AS uid, resource_version, metadata, spec, status
    FROM shoots WHERE namespace = ${namespace} AND name = ${name} ${lock}`;
  return rows.length === 0 ? undefined : toStored(rows[0]);
}

export async function allShoots(tx: Queryable): Promise<Shoot[]> {
  const rows = await tx.$queryRaw<DocumentRow[]>`
    SELECT namespace, name, uid::text AS uid, resource_version, metadata, spec, status FROM shoots ORDER BY namespace, name`;
  return rows.map((r) => toStored(r).shoot);
}

function columnData(columns: ShootColumns) {
  return { ...columns, summary: columns.summary as unknown as Prisma.InputJsonObject };
}

/**
 * Writes `shoot` if its row still has `expectedVersion`; returns the new resourceVersion, or
 * undefined when someone else changed it first.
 */
export async function updateShoot(tx: Tx, shoot: Shoot, columns: ShootColumns, expectedVersion: number): Promise<number | undefined> {
  const { count } = await tx.shoot.updateMany({
    where: { namespace: shoot.metadata.namespace ?? "", name: shoot.metadata.name, resourceVersion: expectedVersion },
    data: {
      ...columnData(columns),
      metadata: storedMetadata(shoot),
      spec: shoot.spec as Prisma.InputJsonObject,
      status: (shoot.status ?? {}) as Prisma.InputJsonObject,
      resourceVersion: { increment: 1 },
    },
  });
  return count === 1 ? expectedVersion + 1 : undefined;
}

export async function insertShoots(tx: Tx, shoots: readonly { shoot: Shoot; columns: ShootColumns }[]): Promise<void> {
  if (shoots.length === 0) return;
  await tx.shoot.createMany({
    data: shoots.map(({ shoot, columns }) => ({
      namespace: shoot.metadata.namespace ?? "",
      name: shoot.metadata.name,
      uid: shoot.metadata.uid ?? crypto.randomUUID(),
      ...columnData(columns),
      metadata: storedMetadata(shoot),
      spec: shoot.spec as Prisma.InputJsonObject,
      status: (shoot.status ?? {}) as Prisma.InputJsonObject,
      ...(shoot.metadata.creationTimestamp ? { createdAt: new Date(shoot.metadata.creationTimestamp) } : {}),
    })),
  });
}

// ---- Listing -------------------------------------------------------------------------------

export type ShootSortField = "name" | "namespace" | "kubernetesVersion" | "status" | "expiry" | "nextMaintenance" | "created";

export interface ShootFilter {
  readonly namespace?: string;
  readonly project?: string;
  readonly statusLabels?: readonly string[];
  readonly cloudProfile?: string;
  readonly seed?: string;
  /** Lowercase words; each must occur in the shoot's search text. */
  readonly words?: readonly string[];
  /** Earliest expiry at or before this moment (already expired versions included). */
  readonly expiringBefore?: Date;
  /** Control-plane (profile, version) pairs that have the wanted classification now. */
  readonly kubernetesVersionsIn?: readonly { cloudProfile: string; version: string }[];
}

export interface ShootPageRequest {
  readonly filter: ShootFilter;
  readonly sort: ShootSortField;
  readonly descending: boolean;
  readonly limit: number;
  /** The moment the listing is for: stored rows valid until before it come back as summaries. */
  readonly now: Date;
  /** The sort key and identity of the last row of the previous page. */
  readonly after?: readonly [string, string, string];
}

export interface ShootListRow {
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: number;
  /** The stored row JSON while still true at the moment asked for; else null and summary is set. */
  readonly listing: string | null;
  readonly summary: ShootSummary | null;
  readonly earliestExpiry: Date | null;
  readonly earliestExpiryVersion: string | null;
  readonly nextMaintenanceAt: Date | null;
  /** This row's sort key, as text, for the next page's cursor. */
  readonly sortKey: string;
}

// Each sort is a plain column with an index on (column, namespace, name), so a page is a walk
// along an index whatever the filter, and the cursor is a row comparison on the same three.
const SORT_COLUMNS: Record<ShootSortField, { column: Prisma.Sql; type: Prisma.Sql }> = {
  name: { column: Prisma.sql`name`, type: Prisma.raw("text") },
  namespace: { column: Prisma.sql`namespace`, type: Prisma.raw("text") },
  kubernetesVersion: { column: Prisma.sql`kubernetes_version_key`, type: Prisma.raw("text") },
  // Worst first when ascending: the order operators triage in.
  status: { column: Prisma.sql`status_rank`, type: Prisma.raw("smallint") },
  // Shoots whose versions never expire carry NEVER, so they come last.
  expiry: { column: Prisma.sql`earliest_expiry`, type: Prisma.raw("timestamptz") },
  nextMaintenance: { column: Prisma.sql`next_maintenance_at`, type: Prisma.raw("timestamptz") },
  created: { column: Prisma.sql`created_at`, type: Prisma.raw("timestamptz") },
};

function where(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`;
}

function whereConditions(filter: ShootFilter): Prisma.Sql[] {
  const parts: Prisma.Sql[] = [];
  if (filter.namespace !== undefined) parts.push(Prisma.sql`namespace = ${filter.namespace}`);
  if (filter.project !== undefined) parts.push(Prisma.sql`project = ${filter.project}`);
  if (filter.statusLabels?.length) parts.push(Prisma.sql`status_label = ANY(${[...filter.statusLabels]}::text[])`);
  if (filter.cloudProfile !== undefined) parts.push(Prisma.sql`cloud_profile = ${filter.cloudProfile}`);
  if (filter.seed !== undefined) parts.push(Prisma.sql`seed = ${filter.seed}`);
  for (const word of filter.words ?? []) {
    const escaped = word.replace(/[\\%_]/g, (c) => `\\${c}`);
    parts.push(Prisma.sql`search_text LIKE ${`%${escaped}%`}`);
  }
  if (filter.expiringBefore !== undefined) parts.push(Prisma.sql`earliest_expiry <= ${filter.expiringBefore}`);
  if (filter.kubernetesVersionsIn !== undefined) {
    const pairs = filter.kubernetesVersionsIn;
    parts.push(Prisma.sql`(cloud_profile, kubernetes_version) IN (SELECT * FROM unnest(${pairs.map((p) => p.cloudProfile)}::text[], ${pairs.map((p) => p.version)}::text[]))`);
  }
  return parts;
}

interface ListRow {
  namespace: string;
  name: string;
  resource_version: number;
  listing: string | null;
  summary: ShootSummary | null;
  earliest_expiry: Date;
  earliest_expiry_version: string | null;
  next_maintenance_at: Date;
  sort_key: string;
}

/** One page (keyset pagination: stable under concurrent writes, no OFFSET scans). */
export async function listShootPage(tx: Queryable, request: ShootPageRequest): Promise<ShootListRow[]> {
  const { column, type } = SORT_COLUMNS[request.sort];
  const conditions = whereConditions(request.filter);
  if (request.after) {
    const [k, ns, n] = request.after;
    const cmp = request.descending ? Prisma.raw("<") : Prisma.raw(">");
    conditions.push(Prisma.sql`(${column}, namespace, name) ${cmp} (${k}::${type}, ${ns}::text, ${n}::text)`);
  }
  const direction = request.descending ? Prisma.raw("DESC") : Prisma.raw("ASC");
  const rows = await rawQuery<ListRow>(tx, Prisma.sql`
    SELECT namespace, name, resource_version,
      CASE WHEN listing_valid_until >= ${request.now} THEN listing END AS listing,
      CASE WHEN listing_valid_until >= ${request.now} THEN NULL ELSE summary END AS summary,
      earliest_expiry, earliest_expiry_version, next_maintenance_at, ${column}::text AS sort_key
    FROM shoots ${where(conditions)}
    ORDER BY ${column} ${direction}, namespace ${direction}, name ${direction}
    LIMIT ${request.limit}`);
  return rows.map((r) => ({
    namespace: r.namespace,
    name: r.name,
    resourceVersion: r.resource_version,
    listing: r.listing,
    summary: r.summary,
    earliestExpiry: r.earliest_expiry.getTime() === NEVER.getTime() ? null : r.earliest_expiry,
    earliestExpiryVersion: r.earliest_expiry_version,
    nextMaintenanceAt: r.next_maintenance_at.getTime() === NEVER.getTime() ? null : r.next_maintenance_at,
    sortKey: r.sort_key,
  }));
}

export async function countShoots(tx: Queryable, filter: ShootFilter): Promise<number> {
  const rows = await rawQuery<{ count: number }>(tx, Prisma.sql`SELECT count(*)::int AS count FROM shoots ${where(whereConditions(filter))}`);
  return rows[0].count;
}
