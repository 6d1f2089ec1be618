// GET /api/v1/namespaces/{ns}/shoots/{name}/nodes on the simulated garden, through the real server:
// a shoot no roll has touched lists each pool's minimum of ready nodes on what it runs (derived,
// not stored), each pool Stable; a roll stored in the inventory is listed as it stands, old and new
// nodes side by side; an unknown shoot is a 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ShootNodesAnswer, shootNodesAnswerSchema } from "../../lib/api/nodes.ts";
import { tickRoll } from "../../lib/engine/node-roll.ts";
import { currentNodeRoll, nodePrefix, rollPoolsOf } from "../../lib/engine/simulated-nodes.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { saveNodeRoll } from "../../lib/store/inventories.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let database: TestDatabase;
let server: AppServer;
let shoots: Shoot[];
const nodesPath = (name: string) => `/api/v1/namespaces/garden-dev/shoots/${name}/nodes`;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 2);
  for (const s of landscape.shoots)
    s.spec = {
      ...s.spec,
      provider: {
        ...s.spec.provider!,
        workers: [worker("pool-a", "gardenlinux", "1592.4.0", { minimum: 2, maximum: 3, zones: ["eu-west-1a"] })],
      },
    };
  shoots = landscape.shoots;
  await seedLandscape(database.db, landscape, { actor: "test", now });
  server = await startWebServer(database.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET .../nodes (simulated garden)", () => {
  it("lists a pool's minimum of ready nodes on what the shoot runs, the pool Stable", async () => {
    const answer = await call<ShootNodesAnswer>(server.baseUrl, nodesPath("cluster-0"));
    expect(answer.status).toBe(200);
    expect(shootNodesAnswerSchema.parse(answer.body)).toEqual(answer.body);
    expect(answer.body.source).toBe("simulated");
    expect(answer.body.items).toHaveLength(2);
    for (const n of answer.body.items)
      expect(n).toMatchObject({
        pool: "pool-a",
        zone: "eu-west-1a",
        image: { name: "gardenlinux", version: "1592.4.0" },
        ready: true,
        taints: [],
        state: "Ready",
        waitingFor: [],
      });
    expect(answer.body.pools).toEqual([
      expect.objectContaining({
        pool: "pool-a",
        updateStrategy: "AutoRollingUpdate",
        state: "Stable",
        updated: 2,
        desired: 2,
      }),
    ]);
  });

  it("lists a stored roll as it stands: old and new nodes, the new one tainted until ready", async () => {
    const shoot = shoots[1];
    const target = structuredClone(shoot);
    target.spec.provider!.workers![0].machine.image = { name: "gardenlinux", version: "1877.2.0" };
    const roll = tickRoll(currentNodeRoll(shoot, undefined, undefined), rollPoolsOf(target), {
      uid: shoot.metadata.uid!,
      prefix: nodePrefix(shoot),
      at: new Date().toISOString(),
    });
    await database.db.$transaction((tx) => saveNodeRoll(tx, "garden-dev", "cluster-1", roll));

    const answer = await call<ShootNodesAnswer>(server.baseUrl, nodesPath("cluster-1"));
    expect(answer.status).toBe(200);
    expect(shootNodesAnswerSchema.parse(answer.body)).toEqual(answer.body);
    const versions = answer.body.items.map((n) => n.image.version).sort();
    expect(versions).toEqual(["1592.4.0", "1592.4.0", "1877.2.0"]);
    const joining = answer.body.items.find((n) => n.image.version === "1877.2.0")!;
    expect(joining.state).toBe("Joining");
    expect(joining.taints).toEqual([
      { key: "node.gardener.cloud/critical-components-not-ready", effect: "NoSchedule" },
    ]);
    expect(answer.body.pools[0]).toMatchObject({
      state: "Rolling",
      updated: 0,
      desired: 2,
      target: { image: { version: "1877.2.0" } },
    });
  });

  it("answers 404 for a shoot that does not exist", async () => {
    const answer = await call(server.baseUrl, nodesPath("no-such-cluster"));
    expect(answer.status).toBe(404);
  });
});
