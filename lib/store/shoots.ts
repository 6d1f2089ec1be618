// Shoots in Postgres: the Gardener document (metadata, spec, status as JSONB) plus derived columns.
// Every function takes the transaction (or client) it runs in, so a use case can write the
// change and its audit event atomically.
import type { Shoot } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";
import type { ShootColumns } from "./shoot-columns.ts";
import type { RunningVersions } from "../engine/running-versions.ts";

export interface StoredShoot {
  readonly shoot: Shoot;
  /** Almanac's version of the row (the API's resourceVersion and ETag). */
  readonly resourceVersion: number;
  /** On a live garden, the garden's resourceVersion of what the row mirrors. */
  readonly gardenResourceVersion?: string;
  /** What the cluster runs, as recorded at its last successful rollout (running-versions.ts). */
  readonly running?: RunningVersions;
}

interface DocumentRow {
  namespace: string;
  name: string;
  uid: string;
  resource_version: number;
  metadata: Shoot["metadata"];
  spec: Shoot["spec"];
  status: Shoot["status"];
  garden_resource_version?: string | null;
  running_versions?: RunningVersions | null;
}

/** The API shape: resourceVersion lives in metadata, as a string, as in Kubernetes. */
function toStored(row: DocumentRow): StoredShoot {
  return {
    resourceVersion: row.resource_version,
    ...(row.garden_resource_version ? { gardenResourceVersion: row.garden_resource_version } : {}),
    ...(row.running_versions ? { running: row.running_versions } : {}),
    shoot: {
      apiVersion: GARDENER_API_VERSION,
      kind: "Shoot",
      metadata: {
        ...row.metadata,
        name: row.name,
        namespace: row.namespace,
        uid: row.uid,
        resourceVersion: String(row.resource_version),
      },
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
export async function findShoot(
  tx: Queryable,
  namespace: string,
  name: string,
  forUpdate = false,
): Promise<StoredShoot | undefined> {
  const lock = forUpdate ? Prisma.sql`FOR UPDATE` : Prisma.empty;
  const rows = await tx.$queryRaw<DocumentRow[]>`
    SELECT namespace, name, uid::text AS uid, resource_version, garden_resource_version, running_versions, metadata, spec, status
    FROM shoots WHERE namespace = ${namespace} AND name = ${name} ${lock}`;
  return rows.length === 0 ? undefined : toStored(rows[0]);
}

/** Every shoot, or every shoot of one namespace. */
/** Every shoot, or those in `namespaces` (empty: none). */
export async function allShoots(tx: Queryable, namespaces?: readonly string[]): Promise<Shoot[]> {
  const inNamespace =
    namespaces === undefined ? Prisma.empty : Prisma.sql`WHERE namespace = ANY(${[...namespaces]}::text[])`;
  const rows = await tx.$queryRaw<DocumentRow[]>`
    SELECT namespace, name, uid::text AS uid, resource_version, metadata, spec, status FROM shoots ${inNamespace} ORDER BY namespace, name`;
  return rows.map((r) => toStored(r).shoot);
}

/** What each shoot runs (running-versions.ts), keyed "namespace/name"; those in `namespaces` when given. */
export async function runningVersionsOf(
  tx: Queryable,
  namespaces?: readonly string[],
): Promise<Map<string, RunningVersions>> {
  const inNamespace =
    namespaces === undefined ? Prisma.empty : Prisma.sql`AND namespace = ANY(${[...namespaces]}::text[])`;
  const rows = await tx.$queryRaw<{ namespace: string; name: string; running_versions: RunningVersions }[]>`
    SELECT namespace, name, running_versions FROM shoots WHERE running_versions IS NOT NULL ${inNamespace}`;
  return new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r.running_versions]));
}

function columnData(columns: ShootColumns) {
  return {
    ...columns,
    summary: columns.summary as unknown as Prisma.InputJsonObject,
    runningVersions:
      columns.runningVersions === null ? Prisma.DbNull : (columns.runningVersions as unknown as Prisma.InputJsonObject),
  };
}

// Every write of a shoot makes its forecast facts stale (lib/store/shoot-forecasts.ts computes
// them again when the forecast is next read); a new row has none.
const FORECAST_STALE = { forecastComputedFrom: null, forecastValidUntil: null } as const;

/**
 * Writes `shoot` if its row still has `expectedVersion`; returns the new resourceVersion, or
 * undefined when someone else changed it first.
 */
export async function updateShoot(
  tx: Tx,
  shoot: Shoot,
  columns: ShootColumns,
  expectedVersion: number,
  gardenResourceVersion?: string,
): Promise<number | undefined> {
  const { count } = await tx.shoot.updateMany({
    where: { namespace: shoot.metadata.namespace ?? "", name: shoot.metadata.name, resourceVersion: expectedVersion },
    data: {
      ...columnData(columns),
      metadata: storedMetadata(shoot),
      spec: shoot.spec as Prisma.InputJsonObject,
      status: (shoot.status ?? {}) as Prisma.InputJsonObject,
      resourceVersion: { increment: 1 },
      ...FORECAST_STALE,
      ...(gardenResourceVersion === undefined ? {} : { gardenResourceVersion }),
    },
  });
  return count === 1 ? expectedVersion + 1 : undefined;
}

// The columns every write of a shoot sets from its document and derived columns, in the order
// documentArrays gives them.
const DOCUMENT_COLUMNS = [
  "metadata",
  "spec",
  "status",
  "project",
  "cloud_profile",
  "seed",
  "kubernetes_version",
  "kubernetes_version_key",
  "status_label",
  "status_rank",
  "hibernated",
  "earliest_expiry",
  "earliest_expiry_version",
  "maintenance_second_of_day",
  "search_text",
  "summary",
  "listing",
  "listing_valid_from",
  "listing_valid_until",
  "running_versions",
] as const;
const documentColumns = (prefix = "") => Prisma.raw(DOCUMENT_COLUMNS.map((c) => `${prefix}${c}`).join(", "));

/**
 * The DOCUMENT_COLUMNS of `writes` as arrays for unnest(): one statement for many shoots, rather
 * than Prisma's createMany/updateMany, which walk every JSON document of their arguments (that
 * made seeding 100,000 shoots take minutes).
 */
function documentArrays(writes: readonly { shoot: Shoot; columns: ShootColumns }[]): Prisma.Sql {
  const col = <T>(pick: (w: (typeof writes)[number]) => T) => writes.map(pick);
  const json = (v: unknown) => JSON.stringify(v ?? {});
  return Prisma.sql`
      ${col((w) => json(storedMetadata(w.shoot)))}::jsonb[], ${col((w) => json(w.shoot.spec))}::jsonb[], ${col((w) => json(w.shoot.status))}::jsonb[],
      ${col((w) => w.columns.project)}::text[], ${col((w) => w.columns.cloudProfile)}::text[], ${col((w) => w.columns.seed)}::text[],
      ${col((w) => w.columns.kubernetesVersion)}::text[], ${col((w) => w.columns.kubernetesVersionKey)}::text[], ${col((w) => w.columns.statusLabel)}::text[],
      ${col((w) => w.columns.statusRank)}::smallint[], ${col((w) => w.columns.hibernated)}::boolean[], ${col((w) => w.columns.earliestExpiry)}::timestamptz[],
      ${col((w) => w.columns.earliestExpiryVersion)}::text[], ${col((w) => w.columns.maintenanceSecondOfDay)}::int[], ${col((w) => w.columns.searchText)}::text[],
      ${col((w) => json(w.columns.summary))}::jsonb[], ${col((w) => w.columns.listing)}::text[], ${col((w) => w.columns.listingValidFrom)}::timestamptz[],
      ${col((w) => w.columns.listingValidUntil)}::timestamptz[],
      ${col((w) => (w.columns.runningVersions === null ? null : JSON.stringify(w.columns.runningVersions)))}::jsonb[]`;
}

export async function insertShoots(
  tx: Tx,
  shoots: readonly { shoot: Shoot; columns: ShootColumns; gardenResourceVersion?: string; resourceVersion?: number }[],
): Promise<void> {
  if (shoots.length === 0) return;
  const col = <T>(pick: (w: (typeof shoots)[number]) => T) => shoots.map(pick);
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO shoots (namespace, name, uid, resource_version, garden_resource_version, ${documentColumns()}, created_at)
    SELECT u.namespace, u.name, u.uid, coalesce(u.resource_version, 1), u.garden_resource_version, ${documentColumns("u.")},
      coalesce(u.created_at, now())
    FROM unnest(
      ${col((w) => w.shoot.metadata.namespace ?? "")}::text[], ${col((w) => w.shoot.metadata.name)}::text[],
      ${col((w) => w.shoot.metadata.uid ?? crypto.randomUUID())}::uuid[], ${col((w) => w.resourceVersion ?? null)}::int[],
      ${col((w) => w.gardenResourceVersion ?? null)}::text[], ${documentArrays(shoots)},
      ${col((w) => (w.shoot.metadata.creationTimestamp ? new Date(w.shoot.metadata.creationTimestamp) : null))}::timestamptz[]
    ) AS u(namespace, name, uid, resource_version, garden_resource_version, ${documentColumns()}, created_at)`);
}

/** Several shoots by key, locked until the transaction ends (in key order, so lockers never deadlock). */
export async function lockShoots(
  tx: Tx,
  keys: readonly { namespace: string; name: string }[],
): Promise<Map<string, StoredShoot>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<DocumentRow[]>(Prisma.sql`
    SELECT s.namespace, s.name, s.uid::text AS uid, s.resource_version, s.garden_resource_version, s.running_versions, s.metadata, s.spec, s.status
    FROM shoots s JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
      ON s.namespace = k.namespace AND s.name = k.name
    ORDER BY s.namespace, s.name
    FOR UPDATE OF s`);
  return new Map(rows.map((r) => [`${r.namespace}/${r.name}`, toStored(r)]));
}

export interface ShootWrite {
  readonly shoot: Shoot;
  readonly columns: ShootColumns;
  readonly expectedVersion: number;
}

/**
 * Writes many shoots in one statement (a maintenance batch), each only if its row still has the
 * expected resourceVersion; answers how many were written.
 */
export async function updateShoots(tx: Tx, writes: readonly ShootWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  const col = <T>(pick: (w: ShootWrite) => T) => writes.map(pick);
  const set = Prisma.raw(DOCUMENT_COLUMNS.map((c) => `${c} = u.${c}`).join(", "));
  return tx.$executeRaw(Prisma.sql`
    UPDATE shoots AS s SET ${set}, resource_version = s.resource_version + 1, updated_at = now(),
      forecast_computed_from = NULL, forecast_valid_until = NULL
    FROM unnest(
      ${col((w) => w.shoot.metadata.namespace ?? "")}::text[], ${col((w) => w.shoot.metadata.name)}::text[], ${col((w) => w.expectedVersion)}::int[],
      ${documentArrays(writes)}
    ) AS u(namespace, name, expected_version, ${documentColumns()})
    WHERE s.namespace = u.namespace AND s.name = u.name AND s.resource_version = u.expected_version`);
}

/** Removes the shoot; its schedules, runs, migrations and inventory go with it (ON DELETE CASCADE). */
export async function removeShoot(tx: Tx, namespace: string, name: string): Promise<void> {
  await tx.shoot.delete({ where: { namespace_name: { namespace, name } } });
}
