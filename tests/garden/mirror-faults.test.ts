// The live garden's mirror against a faulty garden (tests/support/stand-in-garden.ts): what can
// never be mirrored (a watch line that is not JSON, an object of another kind or without a name,
// text PostgreSQL cannot hold) is logged with its key, counted in almanac_garden_bad_input_total
// and skipped, while the events beside it are written and the watch goes on; a shoot naming a
// missing profile is mirrored all the same; a list whose page fails goes on from that page.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startGardenMirror, type RunningMirror } from "../../lib/garden/kubernetes/garden-mirror.ts";
import { metrics } from "../../lib/observability/metrics.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let database: TestDatabase;
const mirrors: RunningMirror[] = [];
const logs: string[] = [];

const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  return kc;
};
const mirror = (options: { pageSize?: number } = {}) => {
  const running = startGardenMirror(database.db, kubeConfig(), {
    holder: "faults",
    leaseMs: 1_500,
    log: (line) => logs.push(line),
    backoff: { initialMs: 50, maxMs: 500 },
    ...options,
  });
  mirrors.push(running);
  return running;
};

/** almanac_garden_bad_input_total of this process for `resource` and `reason`. */
const badInput = async (resource: string, reason: string) =>
  (await metrics().gardenBadInput.get()).values.find(
    (v) => v.labels.resource === resource && v.labels.reason === reason,
  )?.value ?? 0;

const shootRow = (name: string) =>
  database.db.shoot.findUnique({ where: { namespace_name: { namespace: "garden-dev", name } } });

const labelOf = (row: Awaited<ReturnType<typeof shootRow>>) =>
  (row?.metadata as { labels?: Record<string, string> } | undefined)?.labels?.step;

const step = (name: string, value: string) =>
  garden.update("Shoot", "garden-dev", name, (s) => {
    s.metadata.labels = { ...s.metadata.labels, step: value };
  });

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  database = await createTestDatabase();
  putLandscape(garden, smallLandscape(Date.now(), 6));
});

afterEach(async () => {
  await Promise.all(mirrors.splice(0).map((m) => m.stop()));
  logs.length = 0;
});

afterAll(async () => {
  await database?.drop();
  await garden?.close();
});

describe("bad input from the garden", () => {
  test("is logged with its key, counted and skipped; the events beside it are written and the watch goes on", async () => {
    const running = mirror();
    await running.synced();
    const before = {
      notJson: await badInput("shoots", "not-json"),
      kind: await badInput("shoots", "unknown-kind"),
      noName: await badInput("shoots", "no-name"),
      text: await badInput("shoots", "unwritable-text"),
    };
    const kept = await shootRow("cluster-1");
    // Synced once listed: the lines below go to the watches, once they are open (one per kind).
    await eventually(
      () => garden.openWatches(),
      (open) => open === 5,
    );

    step("cluster-2", "before");
    garden.sendRaw("Shoot", '{"type":"MODIFIED","object":{"kind":"Shoot","metadata":');
    garden.sendRaw(
      "Shoot",
      JSON.stringify({ type: "MODIFIED", object: { kind: "Seed", metadata: { name: "aws-eu1", labels: {} } } }),
    );
    garden.sendRaw(
      "Shoot",
      JSON.stringify({ type: "ADDED", object: { kind: "Shoot", metadata: { namespace: "garden-dev" }, spec: {} } }),
    );
    // Stored by the garden and sent like any change: PostgreSQL cannot hold the NUL of its label.
    step("cluster-1", "nul\u0000here");
    step("cluster-3", "after");

    await eventually(
      () => shootRow("cluster-3"),
      (row) => labelOf(row) === "after",
    );
    expect(labelOf(await shootRow("cluster-2"))).toBe("before");
    // What the mirror had of the shoot it cannot write stays.
    expect((await shootRow("cluster-1"))?.gardenResourceVersion).toBe(kept?.gardenResourceVersion);
    expect(await badInput("shoots", "not-json")).toBe(before.notJson + 1);
    expect(await badInput("shoots", "unknown-kind")).toBe(before.kind + 1);
    expect(await badInput("shoots", "no-name")).toBe(before.noName + 1);
    expect(await badInput("shoots", "unwritable-text")).toBe(before.text + 1);
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^The garden sent shoots \(.*\): a watch line that is not JSON; skipped\.$/),
        "The garden sent shoots aws-eu1: an object of another kind; skipped.",
        "The garden sent shoots garden-dev/?: an object without metadata.name (or metadata.namespace); skipped.",
        expect.stringMatching(
          /^The garden sent shoots garden-dev\/cluster-1: an object with text the database cannot hold/,
        ),
      ]),
    );

    // The watch still follows, and a later, writable change of the same shoot is written.
    step("cluster-1", "fixed");
    await eventually(
      () => shootRow("cluster-1"),
      (row) => labelOf(row) === "fixed",
    );
  });

  test("an object the database refuses is skipped alone; the rest of its batch is written", async () => {
    const running = mirror();
    await running.synced();
    await eventually(
      () => garden.openWatches(),
      (open) => open === 5,
    );
    const counted = await badInput("shoots", "unwritable");
    const template = garden.get("Shoot", "garden-dev", "cluster-5");
    step("cluster-2", "beside");
    // Nothing the check before writing sees: PostgreSQL refuses it (uid is a uuid column).
    garden.put("Shoot", { ...template, metadata: { name: "bad-uid", namespace: "garden-dev", uid: "not-a-uuid" } });
    step("cluster-3", "beside");
    await eventually(
      () => shootRow("cluster-3"),
      (row) => labelOf(row) === "beside",
    );
    expect(labelOf(await shootRow("cluster-2"))).toBe("beside");
    expect(await shootRow("bad-uid")).toBeNull();
    expect(await badInput("shoots", "unwritable")).toBe(counted + 1);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^The garden sent shoots garden-dev\/bad-uid \(invalid input syntax for type uuid.*\): an object the database refuses; skipped\.$/,
      ),
    );
    garden.remove("Shoot", "garden-dev", "bad-uid");
    step("cluster-3", "after the refused one");
    await eventually(
      () => shootRow("cluster-3"),
      (row) => labelOf(row) === "after the refused one",
    );
  });

  test("a list skips what it cannot write and keeps what the mirror had of it", async () => {
    const first = mirror();
    await first.synced();
    await first.stop();
    const kept = await shootRow("cluster-4");
    step("cluster-4", "nul\u0000again");
    const counted = await badInput("shoots", "unwritable-text");
    // The next holder cannot resume from the last position (compacted): it lists.
    garden.compact();
    const running = mirror();
    await running.synced();
    expect(await badInput("shoots", "unwritable-text")).toBe(counted + 1);
    const row = await shootRow("cluster-4");
    expect(row?.gardenResourceVersion).toBe(kept?.gardenResourceVersion);
    expect(await database.db.shoot.count()).toBe(garden.list("Shoot").length);
    step("cluster-4", "clean");
    await eventually(
      () => shootRow("cluster-4"),
      (r) => labelOf(r) === "clean",
    );
  });

  test("a shoot naming a missing profile is mirrored without its columns, logged and counted", async () => {
    const running = mirror();
    await running.synced();
    const counted = await badInput("shoots", "missing-profile");
    const template = garden.get("Shoot", "garden-dev", "cluster-5");
    garden.put("Shoot", {
      ...template,
      metadata: { name: "orphan", namespace: "garden-dev" },
      spec: { ...template.spec, cloudProfileName: "nowhere", cloudProfile: { kind: "CloudProfile", name: "nowhere" } },
    });
    const row = await eventually(
      () => shootRow("orphan"),
      (r) => r !== null,
    );
    expect(row?.cloudProfile).toBe("nowhere");
    expect(await badInput("shoots", "missing-profile")).toBe(counted + 1);
    expect(logs).toContain(
      'The garden sent shoots garden-dev/orphan naming cloud profile "nowhere", which the mirror does not have; mirrored without the profile\'s columns.',
    );
    garden.remove("Shoot", "garden-dev", "orphan");
    await eventually(
      () => shootRow("orphan"),
      (r) => r === null,
    );
  });
});

describe("a list the garden fails partway", () => {
  /** The shoots list requests since `from`: how many asked for the first page, which continue tokens. */
  const listRequests = (from: number) => {
    const lists = garden.requests
      .slice(from)
      .filter((r) => r.method === "GET" && r.path.endsWith("/shoots") && r.query.watch === undefined);
    return { firstPages: lists.filter((r) => !r.query.continue).length, continues: lists.map((r) => r.query.continue) };
  };

  // The next holder cannot resume where the last stopped (a change it did not see, then compacted): it lists.
  const forgetHistory = () => {
    step("cluster-2", `forget-${Date.now()}`);
    garden.compact();
  };

  test.each([503, "unreachable" as const])("goes on from the page that failed (%s), asked for again", async (how) => {
    forgetHistory();
    const from = garden.requests.length;
    garden.failListRequest("Shoot", 3, how);
    const running = mirror({ pageSize: 2 });
    await running.synced();
    const { firstPages, continues } = listRequests(from);
    expect(firstPages).toBe(1);
    // Pages 1..n, page 3's token twice.
    const tokens = continues.filter((c) => c !== undefined);
    expect(tokens[1]).toBe(tokens[2]);
    expect(new Set(tokens).size).toBe(tokens.length - 1);
    expect(await database.db.shoot.count()).toBe(garden.list("Shoot").length);
    expect(
      logs.some((l) => /^Listing shoots failed at page 3 \(.*\); asking for that page again in \d+ ms\.$/s.test(l)),
    ).toBe(true);
  });

  test("lists again from the start when the garden no longer continues it (410)", async () => {
    forgetHistory();
    const from = garden.requests.length;
    garden.failListRequest("Shoot", 2, 410);
    const running = mirror({ pageSize: 2 });
    await running.synced();
    expect(listRequests(from).firstPages).toBe(2);
    expect(await database.db.shoot.count()).toBe(garden.list("Shoot").length);
    expect(logs).toContain("The garden no longer continues the shoots list (410); listing again from the start.");
  });
});
