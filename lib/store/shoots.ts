// Shoots in Postgres: the Gardener document (metadata, spec, status as JSONB) plus derived columns.
// Every function takes the transaction (or client) it runs in, so a use case can write the
// change and its audit event atomically.
import type { Shoot } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import { Prisma } from "../db/generated/client.ts";
import type pg from "pg";
import type { Queryable, Tx } from "../db/client.ts";
import { copyRows, type CopyValue } from "../db/copy-rows.ts";
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

// managedFields (about 12 KB of a real garden's shoot) are never read: never stored (review m9).
function storedMetadata(shoot: Shoot): Prisma.InputJsonObject {
  const {
    resourceVersion: _rv,
    managedFields: _mf,
    ...metadata
  } = shoot.metadata as Shoot["metadata"] & {
    managedFields?: unknown;
  };
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

/**
 * The shoots of `keys` that exist, keyed "namespace/name", in one statement (a preview of
 * thousands of shoots reads them at once; each key is a primary-key look-up).
 */
export async function findShoots(
  tx: Queryable,
  keys: readonly { readonly namespace: string; readonly name: string }[],
): Promise<Map<string, StoredShoot>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<DocumentRow[]>`
    SELECT s.namespace, s.name, s.uid::text AS uid, s.resource_version, s.garden_resource_version, s.running_versions, s.metadata, s.spec, s.status
    FROM unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
    JOIN shoots s ON s.namespace = k.namespace AND s.name = k.name`;
  return new Map(rows.map((r) => [`${r.namespace}/${r.name}`, toStored(r)]));
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

// The columns every write of a shoot sets from its document and derived columns: each with its
// type and its value for one write. Inserts and updates send them as column arrays for unnest(),
// the seed as COPY rows.
type DocumentWrite = { readonly shoot: Shoot; readonly columns: ShootColumns };
const json = (v: unknown) => JSON.stringify(v ?? {});
const DOCUMENT_COLUMNS: readonly { name: string; type: string; value: (w: DocumentWrite) => CopyValue }[] = [
  { name: "metadata", type: "jsonb", value: (w) => json(storedMetadata(w.shoot)) },
  { name: "spec", type: "jsonb", value: (w) => json(w.shoot.spec) },
  { name: "status", type: "jsonb", value: (w) => json(w.shoot.status) },
  { name: "project", type: "text", value: (w) => w.columns.project },
  { name: "cloud_profile", type: "text", value: (w) => w.columns.cloudProfile },
  { name: "namespaced_cloud_profile", type: "text", value: (w) => w.columns.namespacedCloudProfile },
  { name: "seed", type: "text", value: (w) => w.columns.seed },
  { name: "kubernetes_version", type: "text", value: (w) => w.columns.kubernetesVersion },
  { name: "kubernetes_version_key", type: "text", value: (w) => w.columns.kubernetesVersionKey },
  { name: "status_label", type: "text", value: (w) => w.columns.statusLabel },
  { name: "status_rank", type: "smallint", value: (w) => w.columns.statusRank },
  { name: "hibernated", type: "boolean", value: (w) => w.columns.hibernated },
  { name: "earliest_expiry", type: "timestamptz", value: (w) => w.columns.earliestExpiry },
  { name: "earliest_expiry_version", type: "text", value: (w) => w.columns.earliestExpiryVersion },
  { name: "maintenance_second_of_day", type: "int", value: (w) => w.columns.maintenanceSecondOfDay },
  { name: "search_text", type: "text", value: (w) => w.columns.searchText },
  { name: "summary", type: "jsonb", value: (w) => json(w.columns.summary) },
  { name: "listing", type: "text", value: (w) => w.columns.listing },
  { name: "listing_valid_from", type: "timestamptz", value: (w) => w.columns.listingValidFrom },
  { name: "listing_valid_until", type: "timestamptz", value: (w) => w.columns.listingValidUntil },
  {
    name: "running_versions",
    type: "jsonb",
    value: (w) => (w.columns.runningVersions === null ? null : JSON.stringify(w.columns.runningVersions)),
  },
];
const documentColumns = (prefix = "") => Prisma.raw(DOCUMENT_COLUMNS.map((c) => `${prefix}${c.name}`).join(", "));

/**
 * The DOCUMENT_COLUMNS of `writes` as arrays for unnest(): one statement for many shoots, rather
 * than Prisma's createMany/updateMany, which walk every JSON document of their arguments (that
 * made seeding 100,000 shoots take minutes).
 */
function documentArrays(writes: readonly DocumentWrite[]): Prisma.Sql {
  return Prisma.join(
    DOCUMENT_COLUMNS.map((c) => Prisma.sql`${writes.map(c.value)}::${Prisma.raw(c.type)}[]`),
    ", ",
  );
}

interface NewShoot extends DocumentWrite {
  readonly gardenResourceVersion?: string;
  readonly resourceVersion?: number;
}

export async function insertShoots(tx: Tx, shoots: readonly NewShoot[]): Promise<void> {
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

/**
 * The same rows as insertShoots, through COPY on `connection` (see lib/db/copy-rows.ts): for the
 * seed's 100,000 shoots. `connection` is the one the caller's transaction runs on.
 */
export async function copyShoots(connection: pg.ClientBase, shoots: Iterable<NewShoot>): Promise<number> {
  const columns = ["namespace", "name", "uid", "resource_version", "garden_resource_version", "created_at"];
  function* rows() {
    for (const w of shoots) {
      const { metadata } = w.shoot;
      yield [
        metadata.namespace ?? "",
        metadata.name,
        metadata.uid ?? crypto.randomUUID(),
        w.resourceVersion ?? 1,
        w.gardenResourceVersion ?? null,
        // insertShoots' now(): the time the transaction started, close enough for a new row.
        metadata.creationTimestamp ? new Date(metadata.creationTimestamp) : new Date(),
        ...DOCUMENT_COLUMNS.map((c) => c.value(w)),
      ];
    }
  }
  return copyRows(connection, "shoots", [...columns, ...DOCUMENT_COLUMNS.map((c) => c.name)], rows());
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

/**
 * Locks the rows of `keys` (those that exist) until the transaction ends, in key order, so that
 * writers that lock several shoots never deadlock; reads nothing else.
 */
export async function lockShootKeys(tx: Tx, keys: readonly { namespace: string; name: string }[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.$queryRaw(Prisma.sql`
    SELECT 1 FROM shoots s
    JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
      ON s.namespace = k.namespace AND s.name = k.name
    ORDER BY s.namespace, s.name
    FOR UPDATE OF s`);
}

/**
 * Rewrites only the derived columns of shoots whose documents stay as they are (their cloud
 * profile changed): one statement for many, each only if its row still has the expected version.
 */
export async function updateShootColumns(
  tx: Tx,
  writes: readonly (DocumentWrite & { readonly expectedVersion: number })[],
): Promise<number> {
  if (writes.length === 0) return 0;
  const derived = DOCUMENT_COLUMNS.filter((c) => !["metadata", "spec", "status"].includes(c.name));
  const col = <T>(pick: (w: (typeof writes)[number]) => T) => writes.map(pick);
  const set = Prisma.raw(derived.map((c) => `${c.name} = u.${c.name}`).join(", "));
  const names = Prisma.raw(derived.map((c) => c.name).join(", "));
  const arrays = Prisma.join(
    derived.map((c) => Prisma.sql`${writes.map(c.value)}::${Prisma.raw(c.type)}[]`),
    ", ",
  );
  return tx.$executeRaw(Prisma.sql`
    UPDATE shoots AS s SET ${set}, resource_version = s.resource_version + 1, updated_at = now(),
      forecast_computed_from = NULL, forecast_valid_until = NULL
    FROM unnest(
      ${col((w) => w.shoot.metadata.namespace ?? "")}::text[], ${col((w) => w.shoot.metadata.name)}::text[], ${col((w) => w.expectedVersion)}::int[],
      ${arrays}
    ) AS u(namespace, name, expected_version, ${names})
    WHERE s.namespace = u.namespace AND s.name = u.name AND s.resource_version = u.expected_version`);
}

export interface ShootWrite extends DocumentWrite {
  readonly expectedVersion: number;
  /** On a live garden, the garden's resourceVersion of the document written (kept when absent). */
  readonly gardenResourceVersion?: string;
}

/**
 * Writes many shoots in one statement (a maintenance batch), each only if its row still has the
 * expected resourceVersion; answers how many were written.
 */
export async function updateShoots(tx: Tx, writes: readonly ShootWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  const col = <T>(pick: (w: ShootWrite) => T) => writes.map(pick);
  const set = Prisma.raw(DOCUMENT_COLUMNS.map((c) => `${c.name} = u.${c.name}`).join(", "));
  return tx.$executeRaw(Prisma.sql`
    UPDATE shoots AS s SET ${set}, resource_version = s.resource_version + 1, updated_at = now(),
      forecast_computed_from = NULL, forecast_valid_until = NULL,
      garden_resource_version = coalesce(u.garden_resource_version, s.garden_resource_version)
    FROM unnest(
      ${col((w) => w.shoot.metadata.namespace ?? "")}::text[], ${col((w) => w.shoot.metadata.name)}::text[], ${col((w) => w.expectedVersion)}::int[],
      ${col((w) => w.gardenResourceVersion ?? null)}::text[], ${documentArrays(writes)}
    ) AS u(namespace, name, expected_version, garden_resource_version, ${documentColumns()})
    WHERE s.namespace = u.namespace AND s.name = u.name AND s.resource_version = u.expected_version`);
}

/** Removes the shoot; its schedules, runs, migrations and inventory go with it (ON DELETE CASCADE). */
export async function removeShoot(tx: Tx, namespace: string, name: string): Promise<void> {
  await tx.shoot.delete({ where: { namespace_name: { namespace, name } } });
}
