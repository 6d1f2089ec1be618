// The update runs, their stages and their shoots (update_runs, update_run_stages,
// update_run_items). An item's state moves as a bulk action's does (Pending -> Acting -> a final
// state, every move a conditional UPDATE under the row's lock: lib/server/act-once.ts); a run's and
// a stage's state are written by the run's job alone (one at a time per run: its singletonKey),
// and by approve/pause/resume/cancel as conditional UPDATEs on the run's row.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { FieldChange } from "../api/audit.ts";
import type {
  UpdateRunHolding,
  UpdateRunItemState,
  UpdateRunStageState,
  UpdateRunState,
  UpdateRunTarget,
} from "../api/update-runs.ts";
import { updateRunRequestId } from "../api/update-runs.ts";
import { jobItemRows } from "./job-item-rows.ts";
import { GARDENER_API_VERSION, type Shoot } from "../gardener/types.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The keys of `keys` that name a shoot (as "namespace/name"). */
export async function existingShoots(
  db: Queryable,
  keys: readonly { readonly namespace: string; readonly name: string }[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await rawQuery<{ namespace: string; name: string }>(
    db,
    PrismaSql.sql`SELECT s.namespace, s.name FROM shoots s
      JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
        ON s.namespace = k.namespace AND s.name = k.name`,
  );
  return new Set(rows.map((r) => `${r.namespace}/${r.name}`));
}

export interface NewUpdateRunStage {
  readonly name: string;
  readonly when: string;
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly shoots: readonly { readonly namespace: string; readonly name: string }[];
}

export interface NewUpdateRun {
  readonly name: string;
  readonly target: UpdateRunTarget;
  readonly healthySeconds: number | null;
  readonly actor: string;
  readonly identity: unknown;
  readonly projects: readonly string[];
  readonly stages: readonly NewUpdateRunStage[];
}

/** Writes the run, its stages and its shoots (the selection's snapshot); answers its id. */
export async function insertUpdateRun(tx: Queryable, run: NewUpdateRun): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    tx,
    PrismaSql.sql`INSERT INTO update_runs (id, name, target, healthy_seconds, actor, identity, projects)
      VALUES (gen_random_uuid(), ${run.name}, ${JSON.stringify(run.target)}::jsonb, ${run.healthySeconds}::int,
              ${run.actor}, ${JSON.stringify(run.identity)}::jsonb, ${[...run.projects]}::text[])
      RETURNING id::text`,
  );
  const id = row!.id;
  const stages = run.stages;
  await tx.$executeRaw(PrismaSql.sql`
    INSERT INTO update_run_stages (run_id, position, name, "when", soak_seconds, approval)
    SELECT ${id}::uuid, s.position, s.name, s.w, s.soak, s.approval
    FROM unnest(${stages.map((_, i) => i)}::int[], ${stages.map((s) => s.name)}::text[],
                ${stages.map((s) => s.when)}::text[], ${stages.map((s) => s.soakSeconds)}::int[],
                ${stages.map((s) => s.approval)}::boolean[]) AS s(position, name, w, soak, approval)`);
  const items = stages.flatMap((s, stage) => s.shoots.map((k) => ({ ...k, stage })));
  if (items.length > 0)
    await tx.$executeRaw(PrismaSql.sql`
      INSERT INTO update_run_items (run_id, position, stage, namespace, name, request_id)
      SELECT ${id}::uuid, i.position, i.stage, i.namespace, i.name, i.request_id
      FROM unnest(${items.map((_, p) => p)}::int[], ${items.map((i) => i.stage)}::int[],
                  ${items.map((i) => i.namespace)}::text[], ${items.map((i) => i.name)}::text[],
                  ${items.map((_, p) => updateRunRequestId(id, p))}::text[])
        AS i(position, stage, namespace, name, request_id)`);
  return id;
}

export interface StoredUpdateRun {
  readonly id: string;
  readonly seq: bigint;
  readonly name: string;
  readonly target: UpdateRunTarget;
  readonly healthySeconds: number | null;
  readonly actor: string;
  readonly identity: unknown;
  readonly projects: readonly string[];
  readonly state: UpdateRunState;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly message: string | null;
  readonly expectedEnd: Date | null;
  /** Bumped by every write of the row (see moveRun, writeRun). */
  readonly version: number;
  readonly total: number;
}

interface RunRow {
  id: string;
  seq: bigint;
  name: string;
  target: UpdateRunTarget;
  healthy_seconds: number | null;
  actor: string;
  identity: unknown;
  projects: string[];
  state: UpdateRunState;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  message: string | null;
  expected_end: Date | null;
  version: number;
  total: number;
}

const toRun = (r: RunRow): StoredUpdateRun => ({
  id: r.id,
  seq: BigInt(r.seq),
  name: r.name,
  target: r.target,
  healthySeconds: r.healthy_seconds,
  actor: r.actor,
  identity: r.identity,
  projects: r.projects,
  state: r.state,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  message: r.message,
  expectedEnd: r.expected_end,
  version: r.version,
  total: Number(r.total),
});

const runColumns = PrismaSql.sql`r.id::text, r.seq, r.name, r.target, r.healthy_seconds, r.actor, r.identity, r.projects,
  r.state, r.created_at, r.started_at, r.finished_at, r.message, r.expected_end, r.version,
  (SELECT count(*)::int FROM update_run_items i WHERE i.run_id = r.id) AS total`;

export async function findUpdateRun(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<StoredUpdateRun | undefined> {
  if (!UUID.test(id)) return undefined;
  const lock = forUpdate ? PrismaSql.sql`FOR UPDATE OF r` : PrismaSql.empty;
  const [row] = await rawQuery<RunRow>(
    db,
    PrismaSql.sql`SELECT ${runColumns} FROM update_runs r WHERE r.id = ${id}::uuid ${lock}`,
  );
  return row ? toRun(row) : undefined;
}

/** Only the run's state (what a shoot's turn asks: was it cancelled?). */
export async function updateRunState(db: Queryable, id: string): Promise<UpdateRunState | undefined> {
  const [row] = await rawQuery<{ state: UpdateRunState }>(
    db,
    PrismaSql.sql`SELECT state FROM update_runs WHERE id = ${id}::uuid`,
  );
  return row?.state;
}

/**
 * Newest first; `projects`: only runs all of whose projects are among them; `beforeSeq`: older than
 * the previous page's last.
 */
export async function listUpdateRuns(
  db: Queryable,
  query: { readonly projects?: readonly string[]; readonly beforeSeq?: bigint; readonly limit: number },
): Promise<StoredUpdateRun[]> {
  const projects = query.projects ? [...query.projects] : null;
  const rows = await rawQuery<RunRow>(
    db,
    PrismaSql.sql`SELECT ${runColumns} FROM update_runs r
      WHERE (${projects}::text[] IS NULL OR r.projects <@ ${projects}::text[])
        AND (${query.beforeSeq ?? null}::bigint IS NULL OR r.seq < ${query.beforeSeq ?? null}::bigint)
      ORDER BY r.seq DESC LIMIT ${query.limit}`,
  );
  return rows.map(toRun);
}

export interface StoredRunStage {
  readonly position: number;
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly state: UpdateRunStageState;
  readonly startedAt: Date | null;
  readonly actedAt: Date | null;
  readonly gateStartedAt: Date | null;
  readonly soakUntil: Date | null;
  readonly finishedAt: Date | null;
  readonly approvedBy: string | null;
  readonly approvedAt: Date | null;
  readonly holding: UpdateRunHolding[] | null;
}

interface StageRow {
  position: number;
  name: string;
  when: "now" | "window";
  soak_seconds: number;
  approval: boolean;
  state: UpdateRunStageState;
  started_at: Date | null;
  acted_at: Date | null;
  gate_started_at: Date | null;
  soak_until: Date | null;
  finished_at: Date | null;
  approved_by: string | null;
  approved_at: Date | null;
  holding: UpdateRunHolding[] | null;
}

export async function updateRunStages(db: Queryable, id: string): Promise<StoredRunStage[]> {
  const rows = await rawQuery<StageRow>(
    db,
    PrismaSql.sql`SELECT position, name, "when", soak_seconds, approval, state, started_at, acted_at, gate_started_at,
        soak_until, finished_at, approved_by, approved_at, holding
      FROM update_run_stages WHERE run_id = ${id}::uuid ORDER BY position`,
  );
  return rows.map((r) => ({
    position: r.position,
    name: r.name,
    when: r.when,
    soakSeconds: r.soak_seconds,
    approval: r.approval,
    state: r.state,
    startedAt: r.started_at,
    actedAt: r.acted_at,
    gateStartedAt: r.gate_started_at,
    soakUntil: r.soak_until,
    finishedAt: r.finished_at,
    approvedBy: r.approved_by,
    approvedAt: r.approved_at,
    holding: r.holding,
  }));
}

export interface StoredRunItem {
  readonly position: number;
  readonly stage: number;
  readonly namespace: string;
  readonly name: string;
  readonly requestId: string;
  readonly state: UpdateRunItemState;
  readonly message: string | null;
  readonly changes: FieldChange[];
  readonly dueAt: Date | null;
  readonly healthySince: Date | null;
  readonly updatedAt: Date;
}

interface ItemRow {
  position: number;
  stage: number;
  namespace: string;
  name: string;
  request_id: string;
  state: UpdateRunItemState;
  message: string | null;
  changes: FieldChange[];
  due_at: Date | null;
  healthy_since: Date | null;
  updated_at: Date;
}

const toItem = (r: ItemRow): StoredRunItem => ({
  position: r.position,
  stage: r.stage,
  namespace: r.namespace,
  name: r.name,
  requestId: r.request_id,
  state: r.state,
  message: r.message,
  changes: r.changes,
  dueAt: r.due_at,
  healthySince: r.healthy_since,
  updatedAt: r.updated_at,
});

const itemColumns = PrismaSql.sql`position, stage, namespace, name, request_id, state, message, changes, due_at, healthy_since, updated_at`;

export async function updateRunItems(db: Queryable, id: string): Promise<StoredRunItem[]> {
  const rows = await rawQuery<ItemRow>(
    db,
    PrismaSql.sql`SELECT ${itemColumns} FROM update_run_items WHERE run_id = ${id}::uuid ORDER BY position`,
  );
  return rows.map(toItem);
}

const itemRows = jobItemRows<ItemRow, StoredRunItem, UpdateRunItemState>({
  table: "update_run_items",
  parent: "run_id",
  lockKey: "update-run",
  columns: itemColumns,
  toItem,
});

export const lockRunItem = itemRows.lock;
export const moveRunItem = itemRows.move;
export const holdRunItem = itemRows.hold;

/** Writes the stage's state and moments (only the fields given; null clears one). */
export async function writeRunStage(
  tx: Queryable,
  id: string,
  position: number,
  stage: Partial<Omit<StoredRunStage, "position" | "name" | "when" | "soakSeconds" | "approval">>,
): Promise<void> {
  const set = (column: string, value: unknown, cast: string) =>
    PrismaSql.sql`${PrismaSql.raw(column)} = ${value}${PrismaSql.raw(cast)}`;
  const parts: PrismaSql.Sql[] = [];
  if (stage.state !== undefined) parts.push(set("state", stage.state, "::text"));
  if (stage.startedAt !== undefined) parts.push(set("started_at", stage.startedAt, "::timestamptz"));
  if (stage.actedAt !== undefined) parts.push(set("acted_at", stage.actedAt, "::timestamptz"));
  if (stage.gateStartedAt !== undefined) parts.push(set("gate_started_at", stage.gateStartedAt, "::timestamptz"));
  if (stage.soakUntil !== undefined) parts.push(set("soak_until", stage.soakUntil, "::timestamptz"));
  if (stage.finishedAt !== undefined) parts.push(set("finished_at", stage.finishedAt, "::timestamptz"));
  if (stage.approvedBy !== undefined) parts.push(set("approved_by", stage.approvedBy, "::text"));
  if (stage.approvedAt !== undefined) parts.push(set("approved_at", stage.approvedAt, "::timestamptz"));
  if (stage.holding !== undefined)
    parts.push(set("holding", stage.holding === null ? null : JSON.stringify(stage.holding), "::jsonb"));
  if (parts.length === 0) return;
  await tx.$executeRaw(
    PrismaSql.sql`UPDATE update_run_stages SET ${PrismaSql.join(parts, ", ")} WHERE run_id = ${id}::uuid AND position = ${position}`,
  );
}

/** Writes the run's state, message and moments (only the fields given; null clears one). */
export async function writeRun(
  tx: Queryable,
  id: string,
  run: {
    readonly state?: UpdateRunState;
    readonly message?: string | null;
    readonly startedAt?: Date | null;
    readonly finishedAt?: Date | null;
    readonly expectedEnd?: Date | null;
  },
): Promise<void> {
  const parts: PrismaSql.Sql[] = [PrismaSql.sql`version = version + 1`];
  if (run.state !== undefined) parts.push(PrismaSql.sql`state = ${run.state}`);
  if (run.message !== undefined) parts.push(PrismaSql.sql`message = ${run.message}::text`);
  if (run.startedAt !== undefined) parts.push(PrismaSql.sql`started_at = ${run.startedAt}::timestamptz`);
  if (run.finishedAt !== undefined) parts.push(PrismaSql.sql`finished_at = ${run.finishedAt}::timestamptz`);
  if (run.expectedEnd !== undefined) parts.push(PrismaSql.sql`expected_end = ${run.expectedEnd}::timestamptz`);
  if (parts.length === 1) return;
  await tx.$executeRaw(PrismaSql.sql`UPDATE update_runs SET ${PrismaSql.join(parts, ", ")} WHERE id = ${id}::uuid`);
}

/**
 * Writes many items' window moments, gate moments and words in one statement (a window stage's
 * first step and the gate's first look write every shoot of the stage: 5,000 UPDATEs one by one
 * outlast a transaction's timeout). Per item, only the fields given; null clears one.
 */
export async function writeRunItems(
  tx: Queryable,
  id: string,
  changes: readonly {
    readonly position: number;
    readonly dueAt?: Date | null;
    readonly healthySince?: Date | null;
    readonly message?: string | null;
  }[],
): Promise<void> {
  if (changes.length === 0) return;
  const given = (key: "dueAt" | "healthySince" | "message") => changes.map((c) => c[key] !== undefined);
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  await tx.$executeRaw(PrismaSql.sql`
    UPDATE update_run_items i SET
      due_at = CASE WHEN c.set_due THEN c.due_at ELSE i.due_at END,
      healthy_since = CASE WHEN c.set_healthy THEN c.healthy_since ELSE i.healthy_since END,
      message = CASE WHEN c.set_message THEN c.message ELSE i.message END
    FROM unnest(${changes.map((c) => c.position)}::int[],
                ${given("dueAt")}::boolean[], ${changes.map((c) => iso(c.dueAt))}::timestamptz[],
                ${given("healthySince")}::boolean[], ${changes.map((c) => iso(c.healthySince))}::timestamptz[],
                ${given("message")}::boolean[], ${changes.map((c) => c.message ?? null)}::text[])
      AS c(position, set_due, due_at, set_healthy, healthy_since, set_message, message)
    WHERE i.run_id = ${id}::uuid AND i.position = c.position`);
}

/** Cancels every Pending item of the run (under their row locks): none of them is acted on after. */
export async function cancelPendingRunItems(tx: Queryable, id: string, message: string): Promise<number> {
  return tx.$executeRaw(PrismaSql.sql`
    UPDATE update_run_items SET state = 'Cancelled', message = ${message}, updated_at = now()
    WHERE run_id = ${id}::uuid AND state = 'Pending'`);
}

/**
 * Moves the run from one of `from` to `to` (a conditional UPDATE: approve, pause, resume and
 * cancel race with the job and one another); answers whether it moved.
 */
export async function moveRun(
  tx: Queryable,
  id: string,
  from: readonly UpdateRunState[],
  to: UpdateRunState,
  extra: { readonly message?: string | null; readonly finishedAt?: Date } = {},
): Promise<boolean> {
  const moved = await tx.$executeRaw(PrismaSql.sql`
    UPDATE update_runs SET state = ${to}, version = version + 1,
      message = CASE WHEN ${extra.message !== undefined} THEN ${extra.message ?? null}::text ELSE message END,
      finished_at = COALESCE(${extra.finishedAt ?? null}::timestamptz, finished_at)
    WHERE id = ${id}::uuid AND state = ANY(${[...from]}::text[])`);
  return moved === 1;
}

/** The runs not ended yet (their job chain must be alive), with their states. */
export async function activeUpdateRuns(db: Queryable): Promise<{ id: string; state: UpdateRunState }[]> {
  return rawQuery<{ id: string; state: UpdateRunState }>(
    db,
    PrismaSql.sql`SELECT id::text, state FROM update_runs WHERE state NOT IN ('Succeeded', 'Failed', 'Cancelled') ORDER BY seq`,
  );
}

/**
 * Holds, until the transaction ends, the one lock under which runs and bulk actions are started:
 * the check that no run under way owns a shoot and the insert that claims it go together, so a
 * run and a bulk action started at the same moment never both take the same cluster.
 */
export async function holdStartLock(tx: Queryable): Promise<void> {
  await tx.$executeRaw(PrismaSql.sql`SELECT pg_advisory_xact_lock(hashtext('update-run-start'))`);
}

/**
 * Among `keys`, the shoots an active run (not ended) other than `exceptRun` owns, with that run:
 * a shoot is moved by one run at a time.
 */
export async function shootsOwnedByActiveRuns(
  db: Queryable,
  keys: readonly { readonly namespace: string; readonly name: string }[],
): Promise<{ namespace: string; name: string; runId: string; runName: string }[]> {
  if (keys.length === 0) return [];
  return rawQuery<{ namespace: string; name: string; runId: string; runName: string }>(
    db,
    PrismaSql.sql`SELECT i.namespace, i.name, r.id::text AS "runId", r.name AS "runName"
      FROM unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
      JOIN update_run_items i ON i.namespace = k.namespace AND i.name = k.name
      JOIN update_runs r ON r.id = i.run_id AND r.state NOT IN ('Succeeded', 'Failed', 'Cancelled')
      ORDER BY r.seq LIMIT 20`,
  );
}

/** The shoots of `keys` as they are now, with their projects, by "namespace/name" (those that exist). */
export async function shootsOfRun(
  db: Queryable,
  keys: readonly { readonly namespace: string; readonly name: string }[],
): Promise<Map<string, { readonly shoot: Shoot; readonly project: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await rawQuery<{
    namespace: string;
    name: string;
    project: string;
    metadata: Shoot["metadata"];
    spec: Shoot["spec"];
    status: Shoot["status"] | null;
  }>(
    db,
    PrismaSql.sql`SELECT s.namespace, s.name, s.project, s.metadata, s.spec, s.status FROM shoots s
      JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
        ON s.namespace = k.namespace AND s.name = k.name`,
  );
  return new Map(
    rows.map((r) => [
      `${r.namespace}/${r.name}`,
      {
        project: r.project,
        shoot: {
          apiVersion: GARDENER_API_VERSION,
          kind: "Shoot",
          metadata: { ...r.metadata, namespace: r.namespace, name: r.name },
          spec: r.spec,
          status: r.status ?? {},
        },
      },
    ]),
  );
}

/** Each shoot's project, by "namespace/name" (those that exist). */
export async function shootProjects(
  db: Queryable,
  keys: readonly { readonly namespace: string; readonly name: string }[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await rawQuery<{ namespace: string; name: string; project: string }>(
    db,
    PrismaSql.sql`SELECT s.namespace, s.name, s.project FROM shoots s
      JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
        ON s.namespace = k.namespace AND s.name = k.name`,
  );
  return new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r.project]));
}

/**
 * What a run's maker holds now, by the name the run records (actorOf: a person's email,
 * `token:<name>`, `admin-token`): a person's granted roles and company groups; a token's role
 * while it is neither revoked nor expired at `now`. Undefined: no such person or usable token.
 */
export async function makerGrants(
  db: Queryable,
  actor: string,
  now: Date,
): Promise<
  | { readonly kind: "person"; readonly bindings: { role: string; scope: string }[]; readonly groups: string[] }
  | { readonly kind: "token"; readonly role: string; readonly scope: string }
  | undefined
> {
  if (actor.startsWith("token:")) {
    const token = await db.apiToken.findUnique({
      where: { name: actor.slice("token:".length) },
      select: { role: true, scope: true, revokedAt: true, expiresAt: true },
    });
    if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) return undefined;
    return { kind: "token", role: token.role, scope: token.scope };
  }
  const user = await db.user.findUnique({
    where: { email: actor },
    select: { groups: true, roleBindings: { select: { role: true, scope: true } } },
  });
  return user ? { kind: "person", bindings: user.roleBindings, groups: user.groups } : undefined;
}
