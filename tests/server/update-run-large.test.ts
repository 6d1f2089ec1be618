// An update run at its largest (5,000 shoots, the limit) on a real PostgreSQL: the first step of a
// window stage writes every shoot's moment, inside the run's transaction (Prisma's 5 s timeout), so
// those writes must be one statement, not 5,000: one by one they took about 4.7 s on a quiet
// machine and outlasted the timeout on a busy one, leaving the run Running with nothing stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { fleetScope } from "../../lib/server/fleet-scope.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { stepUpdateRun } from "../../lib/server/update-run-job.ts";
import { getUpdateRun, previewOrStartUpdateRun, type UpdateRunCaller } from "../../lib/server/update-runs.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const T0 = Date.now();
const SIZE = 5000;
let database: TestDatabase;
let client: PgBoss;

const admin: Principal = {
  kind: "user",
  id: "u-adm",
  name: "Ada",
  email: "ada@example.com",
  groups: [],
  bindings: [{ role: "admin", scope: "*" }],
};

async function caller(): Promise<UpdateRunCaller> {
  return {
    scope: await fleetScope(database.db, admin, embeddedGardenAccess),
    actor: "ada@example.com",
    identity: { kind: "person", user: "almanac:user:ada@example.com", groups: [] },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, smallLandscape(T0, SIZE), { actor: "test", now: T0 });
  await database.db.user.create({
    data: {
      id: admin.kind === "user" ? admin.id : "",
      name: "Ada",
      email: "ada@example.com",
      roleBindings: { create: [{ role: "admin", scope: "*" }] },
    },
  });
}, 300_000);

afterAll(async () => {
  await client?.stop({ graceful: false });
  await database?.drop();
});

describe("update runs: 5,000 shoots", () => {
  it("the first step of a window stage stores every shoot's moment", async () => {
    const shoots = Array.from({ length: SIZE }, (_, i) => ({ namespace: "garden-dev", name: `cluster-${i}` }));
    const outcome = await previewOrStartUpdateRun(
      database.db,
      { name: "big", target: { action: "maintain" }, stages: [{ name: "all", shoots, when: "window" }] },
      await caller(),
      T0,
      () => client,
    );
    if (outcome.dryRun) throw new Error("not started");
    const id = outcome.answer.id;
    const step = await stepUpdateRun(
      database.db,
      embeddedShootWrites(database.db, () => client),
      id,
      T0,
    );
    expect(step.acted).toBe(0);
    const run = await getUpdateRun(database.db, id, await caller());
    expect(run.state).toBe("Running");
    expect(run.stages[0]?.state).toBe("Acting");
    const items = run.stages[0]!.items;
    expect(items).toHaveLength(SIZE);
    expect(items.every((i) => i.dueAt !== undefined)).toBe(true);
    const first = Math.min(...items.map((i) => Date.parse(i.dueAt!)));
    expect(step.wakeAt).toBe(first);
  }, 300_000);
});
