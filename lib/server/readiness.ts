// /readyz: ready when the database answers, every migration has been applied, the landscape
// is there to serve and the job queue (pg-boss) has its tables and queues; with a live garden, also
// when Almanac can sign in to it (its token file is there and the garden does not refuse it: the
// detail names the file, which is configuration, not a secret). Anyone may ask, so the
// answer names what is missing in fixed words; what went wrong (a database error can quote hosts,
// users, URLs) goes to the server log, once each time the state changes rather than on every probe.
import type { Db } from "../db/client.ts";
import { gardenSignIn } from "../garden/garden.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { QUEUES } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Record<string, { ok: boolean; detail: string }>;
}

const DETAILS = {
  reachable: "reachable",
  unreachable: "the database is not reachable",
  applied: "applied",
  failed: "a migration failed",
  pending: "migrations pending",
  loaded: "loaded",
  empty: "the landscape is not loaded yet",
  queues: "ready",
  noQueue: "the job queue is not set up",
  unusable: "the job queue is not usable",
} as const;

interface Probe {
  readonly result: Readiness;
  /** What the log says about this state (absent: nothing to add). */
  readonly cause?: string;
}

/**
 * The job queue: pg-boss's tables there and every queue Almanac sends to made (the first start
 * makes them, lib/jobs/queue.ts). A query that fails here is the queue's fault, not the database's.
 */
async function jobsCheck(db: Db): Promise<{ check: { ok: boolean; detail: string }; cause?: string }> {
  try {
    const [{ present }] = await db.$queryRaw<{ present: boolean }[]>`
      SELECT to_regclass('pgboss.job') IS NOT NULL AND to_regclass('pgboss.queue') IS NOT NULL AS present`;
    if (!present) return { check: { ok: false, detail: DETAILS.noQueue } };
    const names = Object.values(QUEUES);
    const [{ made }] = await db.$queryRaw<{ made: number }[]>`
      SELECT count(*)::int AS made FROM pgboss.queue WHERE name = ANY(${names}::text[])`;
    return made === names.length
      ? { check: { ok: true, detail: DETAILS.queues } }
      : { check: { ok: false, detail: DETAILS.noQueue } };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { check: { ok: false, detail: DETAILS.unusable }, cause: redactSecrets(text.split("\n")[0]) };
  }
}

type SignIn = () => Promise<{ ok: boolean; detail: string }>;

async function probe(connect: () => Db, signIn: SignIn | undefined): Promise<Probe> {
  try {
    const db = connect();
    // A new database has no migrations table yet: reachable, with every migration pending.
    const [{ migrated }] = await db.$queryRaw<{ migrated: boolean }[]>`
      SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS migrated`;
    const [migrations] = migrated
      ? await db.$queryRaw<{ applied: bigint; failed: bigint }[]>`
          SELECT count(*) FILTER (WHERE finished_at IS NOT NULL) AS applied,
                 count(*) FILTER (WHERE finished_at IS NULL AND rolled_back_at IS NULL AND logs IS NOT NULL) AS failed
          FROM "_prisma_migrations"`
      : [{ applied: 0n, failed: 0n }];
    const applied = migrations.failed === 0n && migrations.applied > 0n;
    // The tables are only there to count once the migrations are.
    const [{ count }] = applied
      ? await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM cloud_profiles`
      : [{ count: 0n }];
    const jobs = await jobsCheck(db);
    const checks = {
      database: { ok: true, detail: DETAILS.reachable },
      migrations: applied
        ? { ok: true, detail: DETAILS.applied }
        : { ok: false, detail: migrations.failed > 0n ? DETAILS.failed : DETAILS.pending },
      landscape: count > 0n ? { ok: true, detail: DETAILS.loaded } : { ok: false, detail: DETAILS.empty },
      jobs: jobs.check,
      ...(signIn ? { garden: await signIn() } : {}),
    };
    const cause = migrations.failed > 0n ? `${migrations.failed} migration(s) failed` : jobs.cause;
    return { result: { ready: Object.values(checks).every((c) => c.ok), checks }, cause };
  } catch (error) {
    // The first line: node-postgres and Prisma append the query and a stack.
    const text = error instanceof Error ? error.message : String(error);
    const checks = { database: { ok: false, detail: DETAILS.unreachable } };
    return { result: { ready: false, checks }, cause: redactSecrets(text.split("\n")[0]) };
  }
}

/** A readiness check that reports to `log` whenever its answer (or the reason for it) changes. */
export function readinessCheck(
  log: (line: string) => void = (line) => logger().warn(line),
  signIn: () => SignIn | undefined = gardenSignIn,
) {
  let last: string | undefined;
  return async (connect: () => Db): Promise<Readiness> => {
    const { result, cause } = await probe(connect, signIn());
    const failing = Object.entries(result.checks).filter(([, c]) => !c.ok);
    const state = result.ready
      ? "ready"
      : `not ready: ${failing.map(([name, c]) => `${name}: ${c.detail}`).join("; ")}${cause ? ` (${cause})` : ""}`;
    // A process that starts ready says nothing; every later change is logged once.
    if (state !== last && (last !== undefined || !result.ready)) log(`Readiness: ${state}`);
    last = state;
    return result;
  };
}

export const readiness = readinessCheck();
