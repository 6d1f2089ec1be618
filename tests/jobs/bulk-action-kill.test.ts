// A bulk action whose worker process (`npm run worker`) is killed mid-run resumes in another and
// acts on no shoot twice: maintain now on 200 shoots, SIGKILL once some are done, a second worker
// finishes the rest. Each shoot has exactly one audit event for its write (a second "maintain now"
// after the first run had removed the annotation would be a second event, and a second run).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bulkRequestId } from "../../lib/api/bulk-actions.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { getBulkAction, previewOrStartBulkAction } from "../../lib/server/bulk-actions.ts";
import { fleetScope } from "../../lib/server/fleet-scope.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

const SHOOTS = 200;
const script = path.resolve(import.meta.dirname, "../../scripts/worker.ts");
const children: ChildProcess[] = [];
let database: TestDatabase;
let client: PgBoss;

const operator: Principal = {
  kind: "token",
  id: "t-ops",
  name: "ops",
  bindings: [{ role: "operator", scope: "dev" }],
};

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      ALMANAC_GARDENLET: "off",
      ALMANAC_POLL_SECONDS: "0.5",
      ALMANAC_JOB_EXPIRE_SECONDS: "3",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, smallLandscape(Date.now(), SHOOTS), { actor: "test", now: Date.now() });
  // The token the action is made with (an action acts only while its maker's role allows it).
  await tokenHeader(database.db, "ops", "operator", "dev");
}, 120_000);

afterAll(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await client?.stop({ graceful: false });
  await database?.drop();
});

it("a worker killed mid-run: another resumes, and no shoot is acted on twice", { timeout: 120_000 }, async () => {
  const scope = await fleetScope(database.db, operator, embeddedGardenAccess);
  const caller = {
    scope,
    actor: "token:ops",
    identity: { kind: "person" as const, user: "almanac:token:ops", groups: [] },
  };
  const started = await previewOrStartBulkAction(
    database.db,
    { action: "maintain", filter: { namespace: "garden-dev" } },
    caller,
    Date.now(),
    () => client,
  );
  const id = (started.answer as { id: string }).id;
  const settled = async () =>
    database.db.bulkActionItem.count({ where: { bulkActionId: id, state: { notIn: ["Pending", "Acting"] } } });
  const doomed = startWorkerProcess();
  await waitUntil("the first shoots to be acted on", async () => (await settled()) > 0, 60_000);
  doomed.kill("SIGKILL");
  await new Promise((r) => doomed.once("exit", r));
  const atKill = await settled();
  expect(atKill).toBeLessThan(SHOOTS);

  startWorkerProcess();
  const done = await waitUntil(
    "the bulk action to end",
    async () => {
      const answer = await getBulkAction(database.db, id, caller);
      return answer.state !== "Running" && answer;
    },
    90_000,
  );
  expect(done.total).toBe(SHOOTS);
  expect(done.counts.Succeeded).toBe(SHOOTS);
  const events = await database.db.auditEvent.groupBy({
    by: ["requestId"],
    where: { requestId: { startsWith: `bulk:${id}:` } },
    _count: { _all: true },
  });
  expect(events).toHaveLength(SHOOTS);
  expect(events.filter((e) => e._count._all !== 1)).toEqual([]);
  expect(new Set(events.map((e) => e.requestId))).toEqual(
    new Set(Array.from({ length: SHOOTS }, (_, n) => bulkRequestId(id, n))),
  );
});
