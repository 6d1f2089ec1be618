// The fleet-wide reads narrowed by what the garden lets the caller read, on a test database: the
// roles' namespaces intersected with the garden's (a fake GardenAccess, and the stand-in garden's
// RBAC through the Kubernetes access), refusals naming the garden's check, the simulated garden
// leaving the roles alone, and the event stream's namespaces asked again as answers expire.
import { listShootsParams, summaryParams } from "../../lib/api/operations/shoots.ts";
import { parseQuery } from "../../lib/api/parse-query.ts";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "../../lib/observability/logger.ts";
import type { ShootListAnswer } from "../../lib/api/shoot-list.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { type GardenAccess, GardenUnavailableError, type ReadableInGarden } from "../../lib/auth/garden-access.ts";
import { kubernetesGardenAccess } from "../../lib/garden/kubernetes/kubernetes-garden-access.ts";
import { fleetScope, refuseUnreadable, scopeKey } from "../../lib/server/fleet-scope.ts";
import { fleetSummary } from "../../lib/server/fleet-summary.ts";
import { listShootsJson } from "../../lib/server/list-shoots.ts";
import { authorize } from "../../lib/auth/authorize.ts";
import { followReadableNamespaces, readableNamespaces } from "../../lib/auth/readable-namespaces.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { startStandInGarden, type StandInGarden } from "../support/stand-in-garden.ts";

let database: TestDatabase;
beforeAll(async () => {
  const now = Date.now();
  // dev holds cluster-0..2, prod cluster-3..5; ops has no shoots.
  const landscape = smallLandscape(now, 6);
  landscape.shoots.forEach((shoot, i) => {
    if (i >= 3) shoot.metadata.namespace = "garden-prod";
  });
  landscape.projects.push(
    { metadata: { name: "prod" }, spec: { namespace: "garden-prod" } },
    { metadata: { name: "ops" }, spec: { namespace: "garden-ops" } },
  );
  database = await createTestDatabase();
  await seedLandscape(database.db, landscape, { actor: "test", now });
});
afterAll(async () => {
  await database?.drop();
});

const person = (email: string, ...scopes: string[]): Extract<Principal, { kind: "user" }> => ({
  kind: "user",
  id: email,
  name: email,
  email,
  groups: [],
  // Signed in with the company's identity provider: the garden sees them under their email.
  company: true,
  bindings: scopes.map((scope) => ({ role: "viewer", scope })),
});

/** A garden whose RBAC lets everyone list shoots in `readable` only; it notes what it was asked. */
function fakeGarden(readable: ReadableInGarden) {
  const asked: (readonly string[])[] = [];
  const access: GardenAccess = {
    answerHoldsMs: 30_000,
    async readableNamespaces(_identity, candidates) {
      const list = (await candidates()).map((c) => (typeof c === "string" ? c : c.namespace));
      asked.push(list);
      return readable === "all" ? "all" : new Set(list.filter((n) => readable.has(n)));
    },
    async mayRead(_identity, namespace) {
      return readable === "all" || readable.has(namespace);
    },
  };
  return { access, asked };
}

const list = async (scope: Awaited<ReturnType<typeof fleetScope>>, query = "") =>
  JSON.parse(
    String(
      await listShootsJson(
        database.db,
        parseQuery(listShootsParams, new URLSearchParams(query)),
        scope,
        undefined,
        Date.now(),
      ),
    ),
  ) as ShootListAnswer;

describe("the fleet scope on a garden with its own RBAC", () => {
  it("narrows a landscape-wide reader to the namespaces the garden lets them read, lists and totals alike", async () => {
    const garden = fakeGarden(new Set(["garden-dev"]));
    const scope = await fleetScope(database.db, person("ada@example.com", "*"), garden.access);
    expect(scope.namespaces).toEqual(["garden-dev"]);
    expect(scope.narrowedByGarden).toBe(true);
    // Every project's namespace was a candidate (read from the mirror).
    expect([...garden.asked[0]].sort()).toEqual(["garden-dev", "garden-ops", "garden-prod"]);
    const answer = await list(scope);
    expect(answer.total).toBe(3);
    expect(new Set(answer.items.map((s) => s.namespace))).toEqual(new Set(["garden-dev"]));
    expect((await fleetSummary(database.db, summaryParams.parse({}), scope, Date.now())).total).toBe(3);
  });

  it("asks the garden only about the namespaces the roles allow, and keeps what both allow", async () => {
    const garden = fakeGarden(new Set(["garden-dev", "garden-ops"]));
    const scope = await fleetScope(database.db, person("bob@example.com", "dev", "prod"), garden.access);
    expect([...garden.asked[0]].sort()).toEqual(["garden-dev", "garden-prod"]);
    expect(scope.namespaces).toEqual(["garden-dev"]);
    expect((await list(scope)).total).toBe(3);
  });

  it("refuses a filter the garden does not allow with what its RBAC checked, and one the roles do not with the role", async () => {
    const garden = fakeGarden(new Set(["garden-dev"]));
    const ada = await fleetScope(database.db, person("ada@example.com", "*"), garden.access);
    const refusal = {
      code: "forbidden",
      message:
        "The garden does not let you list shoots in namespace garden-prod (Kubernetes RBAC: verb list, resource shoots.core.gardener.cloud).",
      extensions: {
        rbac: { verb: "list", group: "core.gardener.cloud", resource: "shoots", namespace: "garden-prod" },
      },
    };
    await expect(refuseUnreadable(database.db, ada, { namespace: "garden-prod" })).rejects.toMatchObject(refusal);
    await expect(refuseUnreadable(database.db, ada, { project: "prod" })).rejects.toMatchObject(refusal);
    await expect(list(ada, "namespace=garden-prod")).rejects.toMatchObject(refusal);
    await expect(
      refuseUnreadable(database.db, ada, { namespace: "garden-dev", project: "dev" }),
    ).resolves.toBeUndefined();

    const dev = await fleetScope(database.db, person("carl@example.com", "dev"), fakeGarden(new Set()).access);
    expect(dev.namespaces).toEqual([]);
    await expect(refuseUnreadable(database.db, dev, { namespace: "garden-prod" })).rejects.toMatchObject({
      code: "forbidden",
      message: "You have no role on project prod (namespace garden-prod); this needs viewer.",
    });
    await expect(refuseUnreadable(database.db, dev, { project: "dev" })).rejects.toMatchObject({
      message: expect.stringMatching(/^The garden does not let you list shoots in namespace garden-dev/),
    });
  });

  it("keys cached answers apart for a landscape reader the garden narrowed and a project reader", async () => {
    const garden = fakeGarden(new Set(["garden-dev"]));
    const narrowed = await fleetScope(database.db, person("ada@example.com", "*", "dev"), garden.access);
    const project = await fleetScope(database.db, person("bob@example.com", "dev"), embeddedGardenAccess);
    expect(narrowed.namespaces).toEqual(project.namespaces);
    expect(scopeKey(narrowed)).not.toBe(scopeKey(project));
  });

  it("leaves the roles alone on the simulated garden, answering at once", async () => {
    expect(embeddedGardenAccess.readableNamespaces({ kind: "almanac" }, () => [])).toBe("all");
    expect(embeddedGardenAccess.mayRead({ kind: "person", user: "x", groups: [] }, "garden-dev")).toBe(true);
    const all = await fleetScope(database.db, person("ada@example.com", "*"), embeddedGardenAccess);
    expect(all).toMatchObject({ namespaces: "all", narrowedByGarden: false });
    const dev = await fleetScope(database.db, person("bob@example.com", "dev"), embeddedGardenAccess);
    expect(dev).toMatchObject({ namespaces: ["garden-dev"], narrowedByGarden: false });
  });
});

describe("the fleet scope against the stand-in garden's RBAC", () => {
  let garden: StandInGarden;
  let kubeConfig: KubeConfig;
  beforeAll(async () => {
    garden = await startStandInGarden();
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(garden.writeKubeconfig());
  });
  afterAll(async () => {
    await garden?.close();
  });

  it("shows a person the shoots of the namespaces the garden lets them list, and everything to Almanac itself", async () => {
    garden.rbac.push({ groups: ["team-prod"], verbs: ["list"], resources: ["shoots"], namespaces: ["garden-prod"] });
    const access = kubernetesGardenAccess(kubeConfig);
    const dora: Principal = { ...person("dora@example.com", "*"), groups: ["team-prod"] };
    const scope = await fleetScope(database.db, dora, access);
    expect(scope.namespaces).toEqual(["garden-prod"]);
    const answer = await list(scope);
    expect(answer.items.map((s) => s.name).sort()).toEqual(["cluster-3", "cluster-4", "cluster-5"]);
    // The shoot page's check: the same authorize() as the API's.
    const mayRead = async (namespace: string) =>
      (await authorize(dora, { need: "read", namespace }, access, () => undefined)).ok;
    await expect(mayRead("garden-prod")).resolves.toBe(true);
    await expect(mayRead("garden-dev")).resolves.toBe(false);

    const admin: Principal = { kind: "admin-token", name: "admin token", bindings: [{ role: "admin", scope: "*" }] };
    await expect(fleetScope(database.db, admin, access)).resolves.toMatchObject({ namespaces: "all" });
  });

  it("fails the read when the garden cannot answer, and the page's check says no", async () => {
    vi.spyOn(logger(), "warn").mockImplementation(() => {});
    const down = new KubeConfig();
    down.loadFromOptions({
      clusters: [{ name: "down", server: garden.url, skipTLSVerify: true }],
      users: [{ name: "nobody", token: "not-a-token" }],
      contexts: [{ name: "down", cluster: "down", user: "nobody" }],
      currentContext: "down",
    });
    const access = kubernetesGardenAccess(down);
    await expect(fleetScope(database.db, person("ada@example.com", "*"), access)).rejects.toBeInstanceOf(
      GardenUnavailableError,
    );
    await expect(
      authorize(person("ada@example.com", "*"), { need: "read", namespace: "garden-dev" }, access, () => "dev"),
    ).resolves.toMatchObject({ ok: false, refusal: expect.any(GardenUnavailableError) });
    vi.restoreAllMocks();
  });
});

describe("followReadableNamespaces (the event stream)", () => {
  it("asks again when the garden's answers expire, and reads nothing while the garden cannot answer", async () => {
    let answer: ReadableInGarden | Error = new Set(["garden-dev"]);
    const access: GardenAccess = {
      answerHoldsMs: 40,
      readableNamespaces: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
      mayRead: () => true,
    };
    const stop = new AbortController();
    const readable = await followReadableNamespaces(database.db, person("ada@example.com", "*"), access, stop.signal);
    expect([readable("garden-dev"), readable("garden-prod")]).toEqual([true, false]);
    answer = new Set(["garden-prod"]);
    await vi.waitFor(() => expect([readable("garden-dev"), readable("garden-prod")]).toEqual([false, true]));
    answer = new GardenUnavailableError("down");
    await vi.waitFor(() => expect(readable("garden-prod")).toBe(false));
    answer = "all";
    await vi.waitFor(() => expect(readable("garden-ops")).toBe(true));
    stop.abort();
    answer = new Set();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(readable("garden-ops")).toBe(true);
  });

  it("asks once on the simulated garden", async () => {
    const spy = vi.spyOn(embeddedGardenAccess, "readableNamespaces");
    const readable = await followReadableNamespaces(
      database.db,
      person("bob@example.com", "dev"),
      embeddedGardenAccess,
      new AbortController().signal,
    );
    expect([readable("garden-dev"), readable("garden-prod")]).toEqual([true, false]);
    expect(await readableNamespaces(database.db, person("bob@example.com", "dev"), embeddedGardenAccess)).toEqual(
      new Set(["garden-dev"]),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });
});
