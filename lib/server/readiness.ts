// /readyz: ready when the database answers, every migration has been applied and the landscape
// is there to serve.
import type { Db } from "../db/client.ts";

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Record<string, { ok: boolean; detail: string }>;
}

export async function readiness(db: Db): Promise<Readiness> {
  const checks: Readiness["checks"] = {};
  try {
    const [migrations] = await db.$queryRaw<{ applied: bigint; failed: bigint }[]>`
      SELECT count(*) FILTER (WHERE finished_at IS NOT NULL) AS applied,
             count(*) FILTER (WHERE finished_at IS NULL AND rolled_back_at IS NULL AND logs IS NOT NULL) AS failed
      FROM "_prisma_migrations"`;
    checks.database = { ok: true, detail: "reachable" };
    checks.migrations =
      migrations.failed > 0n
        ? { ok: false, detail: `${migrations.failed} migration(s) failed` }
        : { ok: migrations.applied > 0n, detail: `${migrations.applied} applied` };
    const [{ count }] = await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM cloud_profiles`;
    checks.landscape = { ok: count > 0n, detail: `${count} cloud profile(s)` };
  } catch (error) {
    checks.database = { ok: false, detail: (error as Error).message.split("\n")[0] };
  }
  return { ready: Object.values(checks).every((c) => c.ok) && checks.migrations !== undefined, checks };
}
