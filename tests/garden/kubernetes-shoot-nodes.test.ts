// A live garden's nodes against the stand-in garden and a stand-in shoot API server: without the
// viewer credential, what the garden reports (pools, the roll's state) and why the nodes are not
// shown; with it, the viewer kubeconfig requested as the person (their impersonated identity or
// their own token), the nodes read with it and mapped (taints, what a joining node waits for),
// the kubeconfig kept nowhere; the garden's 403 and read-only mode refused in their own words; a
// shoot API server that refuses or does not answer named in a clear refusal.
import { randomUUID } from "node:crypto";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { GardenIdentity } from "../../lib/auth/garden-identity.ts";
import type { ShootNodesAnswer } from "../../lib/api/nodes.ts";
import { Refusal } from "../../lib/api/refusal.ts";
import { kubernetesShootNodes } from "../../lib/garden/kubernetes/kubernetes-shoot-nodes.ts";
import type { GardenIdentityMode } from "../../lib/garden/garden-config.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type ProblemAnswer, refusalAnswer } from "../../lib/http/refusal-answer.ts";
import { logger } from "../../lib/observability/logger.ts";
import { readShootNodes } from "../../lib/server/shoot-nodes.ts";
import { mirrorObject, mirrorShoot } from "../../lib/store/garden-mirror.ts";
import { seed, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";
import { type StandInShoot, startStandInShoot } from "../support/stand-in-shoot.ts";

const NS = "garden-dev";
const SHOOTS = `/apis/core.gardener.cloud/v1beta1/namespaces/${NS}/shoots`;
const TAINT = "node.gardener.cloud/critical-components-not-ready";
const ADA: GardenIdentity = { kind: "person", user: "ada@example.com", groups: ["team-a", "node-readers"] };
const BOB: GardenIdentity = { kind: "person", user: "bob@example.com", groups: ["team-b"] };

let database: TestDatabase;
let garden: StandInGarden;
let shootServer: StandInShoot;
let kubeConfig: KubeConfig;
const issuedKubeconfigs: string[] = [];

// The stand-in shoot API server speaks plain HTTP: only this wiring lets such a kubeconfig through.
const nodesOf = (mode: GardenIdentityMode) =>
  kubernetesShootNodes(database.db, kubeConfig, mode, { insecureForTests: true });
const asked = (name: string, identity: GardenIdentity, throughViewerKubeconfig: boolean) => ({
  namespace: NS,
  name,
  actor: identity.kind === "person" ? identity.user : "admin",
  requestId: `req-${randomUUID()}`,
  identity,
  throughViewerKubeconfig,
  now: Date.now(),
});

/** The refusal the use case threw, as the HTTP edge answers it, with its message. */
async function thrown(promise: Promise<unknown>): Promise<ProblemAnswer & { message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Refusal);
  return { ...refusalAnswer(error as Refusal), message: (error as Refusal).message };
}

const labels = (pool: string, zone = "eu-1a") => ({
  "worker.gardener.cloud/pool": pool,
  "topology.kubernetes.io/zone": zone,
  "kubernetes.io/os": "linux",
});

function node(name: string, pool: string, osImage: string, options: { taints?: object[]; unschedulable?: boolean }) {
  return {
    metadata: { name, labels: labels(pool) },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      conditions: [
        { type: "MemoryPressure", status: "False" },
        { type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" },
      ],
      nodeInfo: { kubeletVersion: "v1.31.2", osImage, containerRuntimeVersion: "containerd://1.7.20" },
    },
  };
}

const CRITICAL = { "node.gardener.cloud/critical-component": "true" };
const daemonSet = (name: string, uid: string) => ({
  metadata: { name, namespace: "kube-system", uid, labels: { ...CRITICAL, app: name } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { ...CRITICAL, app: name } },
      spec: { tolerations: [{ operator: "Exists" }], containers: [{ name, image: `${name}:1` }] },
    },
  },
  status: { desiredNumberScheduled: 3, numberReady: 2 },
});

function pod(
  name: string,
  nodeName: string,
  ds: { name: string; uid: string },
  ready: boolean,
  extra: { annotations?: Record<string, string>; waiting?: string } = {},
) {
  return {
    metadata: {
      name,
      namespace: "kube-system",
      labels: { ...CRITICAL, app: ds.name },
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
      ownerReferences: [{ apiVersion: "apps/v1", kind: "DaemonSet", name: ds.name, uid: ds.uid, controller: true }],
    },
    spec: { nodeName, containers: [{ name: ds.name, image: `${ds.name}:1` }] },
    status: {
      phase: "Running",
      conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
      containerStatuses: [
        {
          name: ds.name,
          ready,
          restartCount: ready ? 0 : 7,
          state: extra.waiting ? { waiting: { reason: extra.waiting } } : { running: {} },
        },
      ],
    },
  };
}

const CALICO = { name: "calico-node", uid: "ds-calico" };
const KUBE_PROXY = { name: "kube-proxy", uid: "ds-kube-proxy" };
const CSI = { name: "csi-driver-node", uid: "ds-csi" };
const CINDER = "cinder.csi.openstack.org";

/** cluster-1 in the middle of pool-a's roll to gardenlinux 1877.2.0 as Gardener shows it. */
function rolling(shoot: Shoot): Shoot {
  return {
    ...shoot,
    spec: {
      ...shoot.spec,
      provider: {
        ...shoot.spec.provider,
        workers: [
          worker("pool-a", "gardenlinux", "1877.2.0", { minimum: 2, maximum: 4, maxSurge: 1, maxUnavailable: 0 }),
          worker("pool-b", "gardenlinux", "1592.4.0", { minimum: 1, maximum: 1, updateStrategy: "AutoInPlaceUpdate" }),
        ],
      },
    },
    status: {
      ...shoot.status,
      lastOperation: {
        type: "Reconcile",
        state: "Processing",
        progress: 83,
        description: "Waiting until all shoot worker nodes have updated the operating system config",
        lastUpdateTime: new Date().toISOString(),
      },
      conditions: [
        {
          type: "EveryNodeReady",
          status: "Progressing",
          reason: "NodesRollOutScalingUp",
          message: 'Worker pool "pool-a" is rolling out: 1 of 2 machines updated.',
        },
      ],
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  garden = await startStandInGarden();
  shootServer = await startStandInShoot();
  const landscape = smallLandscape(Date.now(), 4);
  const profile = landscape.cloudProfiles[0];
  garden.put("CloudProfile", profile);
  garden.put("Seed", seed("seed-1"));
  garden.put("Project", landscape.projects[0]);
  for (const s of landscape.shoots) garden.put("Shoot", s.metadata.name === "cluster-1" ? rolling(s) : s);
  await database.db.$transaction(async (tx) => {
    await mirrorObject(tx, "CloudProfile", garden.get("CloudProfile", undefined, profile.metadata.name));
    await mirrorObject(tx, "Seed", garden.get("Seed", undefined, "seed-1"));
    await mirrorObject(tx, "Project", garden.get("Project", undefined, "dev"));
    for (const s of landscape.shoots)
      await mirrorShoot(tx, garden.get("Shoot", NS, s.metadata.name) as Shoot, profile, Date.now());
  });
  // People in node-readers may ask for viewer kubeconfigs in garden-dev; nobody else but Almanac's
  // own identity, which the stand-in grants everything (deploy/garden-rbac.yaml grants it no such right).
  garden.rbac.push({
    groups: ["node-readers"],
    verbs: ["create"],
    resources: ["shoots/viewerkubeconfig"],
    namespaces: [NS],
  });
  // The kubeconfigs issued for cluster-1, as the garden sends them (base64), to look for them later.
  garden.serveShoot(NS, "cluster-1", {
    issueViewerKubeconfig(user, groups, seconds) {
      const issued = shootServer.issueViewerKubeconfig(user, groups, seconds);
      issuedKubeconfigs.push(Buffer.from(issued.kubeconfig).toString("base64"));
      return issued;
    },
  });

  // pool-a: an old node draining, a new one joining (its components not ready); pool-b: one node.
  shootServer.put(
    "Node",
    node("shoot--dev--cluster-1-pool-a-old-1", "pool-a", "Garden Linux 1592.4", {
      unschedulable: true,
      taints: [{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }],
    }),
  );
  shootServer.put(
    "Node",
    node("shoot--dev--cluster-1-pool-a-new-1", "pool-a", "Garden Linux 1877.2", {
      taints: [{ key: TAINT, effect: "NoSchedule" }],
    }),
  );
  shootServer.put("Node", node("shoot--dev--cluster-1-pool-b-1", "pool-b", "Garden Linux 1592.4", {}));
  for (const ds of [CALICO, KUBE_PROXY, CSI]) shootServer.put("DaemonSet", daemonSet(ds.name, ds.uid));
  // Not node-critical: never waited for.
  shootServer.put("DaemonSet", {
    ...daemonSet("node-exporter", "ds-exporter"),
    metadata: { name: "node-exporter", namespace: "kube-system", uid: "ds-exporter", labels: { app: "node-exporter" } },
  });
  const wait = { annotations: { "node.gardener.cloud/wait-for-csi-node-cinder": CINDER } };
  for (const n of ["shoot--dev--cluster-1-pool-a-old-1", "shoot--dev--cluster-1-pool-b-1"]) {
    shootServer.put("Pod", pod(`calico-node-${n.slice(-8)}`, n, CALICO, true));
    shootServer.put("Pod", pod(`kube-proxy-${n.slice(-8)}`, n, KUBE_PROXY, true));
    shootServer.put("Pod", pod(`csi-driver-node-${n.slice(-8)}`, n, CSI, true, wait));
    shootServer.put("CSINode", { metadata: { name: n }, spec: { drivers: [{ name: CINDER, nodeID: n }] } });
  }
  const fresh = "shoot--dev--cluster-1-pool-a-new-1";
  shootServer.put("Pod", pod("calico-node-new01", fresh, CALICO, true));
  shootServer.put("Pod", pod("csi-driver-node-new01", fresh, CSI, false, { ...wait, waiting: "CrashLoopBackOff" }));
  shootServer.put("CSINode", { metadata: { name: fresh }, spec: { drivers: [] } });

  kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig());
});

afterAll(async () => {
  await shootServer?.close();
  await garden?.close();
  await database?.drop();
});

beforeEach(() => {
  garden.requests.length = 0;
  shootServer.requests.length = 0;
});

describe("a live garden's nodes without the viewer credential", () => {
  it("answers the pools and the roll as the garden reports them, no nodes, and says why", async () => {
    const answer = await readShootNodes(nodesOf("impersonation"), asked("cluster-1", ADA, false));
    expect(answer.source).toBe("garden");
    expect(answer.items).toEqual([]);
    expect(answer.pools).toEqual([
      {
        pool: "pool-a",
        updateStrategy: "AutoRollingUpdate",
        minimum: 2,
        maximum: 4,
        maxSurge: "1",
        maxUnavailable: "0",
        target: { kubernetesVersion: "1.31.2", image: { name: "gardenlinux", version: "1877.2.0" } },
        state: "Rolling",
        updated: 0,
        desired: 2,
      },
      {
        pool: "pool-b",
        updateStrategy: "AutoInPlaceUpdate",
        minimum: 1,
        maximum: 1,
        maxSurge: "0",
        maxUnavailable: "1",
        target: { kubernetesVersion: "1.31.2", image: { name: "gardenlinux", version: "1592.4.0" } },
        // The operation is at the worker steps: every pool may be changing.
        state: "Rolling",
        updated: 0,
        desired: 1,
      },
    ]);
    expect(answer.note).toContain('EveryNodeReady is Progressing (NodesRollOutScalingUp): Worker pool "pool-a"');
    expect(answer.note).toContain("Waiting until all shoot worker nodes have updated the operating system config");
    expect(answer.note).toMatch(/inside the shoot/);
    expect(answer.note).toMatch(/shoots\/viewerkubeconfig/);
    expect(answer.note).toMatch(/never stores/);
    // Nothing was asked of the garden or the shoot: the mirror knows the pools.
    expect(garden.requests).toEqual([]);
    expect(shootServer.requests).toEqual([]);
  });

  it("calls a shoot whose nodes are all ready and whose operation succeeded Stable", async () => {
    const answer = await readShootNodes(nodesOf("read-only"), asked("cluster-2", ADA, false));
    expect(answer.pools.map((p) => [p.pool, p.state, p.updated, p.desired])).toEqual([
      ["pool-a", "Stable", 0, 0],
      ["pool-b", "Stable", 0, 0],
    ]);
    expect(answer.note).not.toMatch(/The garden reports/);
  });

  it("answers an unknown shoot 404", async () => {
    const refused = await thrown(readShootNodes(nodesOf("impersonation"), asked("nowhere", ADA, false)));
    expect(refused.status).toBe(404);
  });
});

describe("a live garden's nodes through a viewer kubeconfig", () => {
  it("requests it as the person, reads the nodes with it and maps them, and keeps it nowhere", async () => {
    const logged: unknown[] = [];
    const spies = (["trace", "debug", "info", "warn", "error", "fatal"] as const).map((level) =>
      vi.spyOn(logger(), level).mockImplementation((...args: unknown[]) => void logged.push(args)),
    );
    let answer: ShootNodesAnswer;
    try {
      answer = await readShootNodes(nodesOf("impersonation"), asked("cluster-1", ADA, true));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }

    // The garden saw Ada (impersonated by Almanac), asking for Gardener's shortest validity.
    expect(garden.requests).toHaveLength(1);
    expect(garden.requests[0]).toMatchObject({
      method: "POST",
      path: `${SHOOTS}/cluster-1/viewerkubeconfig`,
      user: "ada@example.com",
      impersonatedBy: garden.almanacUser,
      body: {
        apiVersion: "authentication.gardener.cloud/v1alpha1",
        kind: "ViewerKubeconfigRequest",
        spec: { expirationSeconds: 600 },
      },
    });
    expect(garden.requests[0].groups).toEqual(expect.arrayContaining(["team-a", "node-readers"]));
    // The shoot's API server saw the viewer Gardener issued to Ada, reading only.
    expect(shootServer.requests.length).toBe(4);
    for (const r of shootServer.requests) {
      expect(r.method).toBe("GET");
      expect(r.user).toBe("gardener.cloud:viewer:ada@example.com");
      expect(r.groups).toContain("gardener.cloud:project:viewers");
    }
    expect(shootServer.requests.map((r) => `${r.path}?${r.query.labelSelector ?? ""}`).sort()).toEqual([
      "/api/v1/namespaces/kube-system/pods?node.gardener.cloud/critical-component=true",
      "/api/v1/nodes?",
      "/apis/apps/v1/namespaces/kube-system/daemonsets?node.gardener.cloud/critical-component=true",
      "/apis/storage.k8s.io/v1/csinodes?",
    ]);

    expect(answer.source).toBe("shoot");
    expect(answer.note).toBeUndefined();
    const byName = new Map(answer.items.map((n) => [n.name, n]));
    expect(answer.items.map((n) => n.name)).toEqual([
      "shoot--dev--cluster-1-pool-a-new-1",
      "shoot--dev--cluster-1-pool-a-old-1",
      "shoot--dev--cluster-1-pool-b-1",
    ]);
    expect(byName.get("shoot--dev--cluster-1-pool-a-new-1")).toMatchObject({
      pool: "pool-a",
      zone: "eu-1a",
      kubernetesVersion: "1.31.2",
      image: { name: "gardenlinux", version: "1877.2" },
      ready: true,
      taints: [{ key: TAINT, effect: "NoSchedule" }],
      state: "Joining",
      waitingFor: [
        {
          kind: "DaemonSet",
          namespace: "kube-system",
          name: "kube-proxy",
          reason: "no daemon pod scheduled on the node yet",
        },
        { kind: "Pod", namespace: "kube-system", name: "csi-driver-node-new01", reason: "CrashLoopBackOff" },
        { kind: "CSIDriver", name: CINDER, reason: "driver not registered in CSINode" },
      ],
    });
    expect(byName.get("shoot--dev--cluster-1-pool-a-old-1")).toMatchObject({
      image: { name: "gardenlinux", version: "1592.4" },
      ready: true,
      state: "Draining",
      taints: [{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }],
      waitingFor: [],
    });
    expect(byName.get("shoot--dev--cluster-1-pool-b-1")).toMatchObject({ state: "Ready", taints: [], waitingFor: [] });
    // Counted from the nodes: pool-a has none on the target serving yet; pool-b's one is.
    expect(answer.pools.map((p) => [p.pool, p.state, p.updated, p.desired])).toEqual([
      ["pool-a", "Rolling", 0, 2],
      ["pool-b", "Rolling", 1, 1],
    ]);

    // The credential is in no answer, no table and no log line, neither the token nor the kubeconfig.
    const token = shootServer.issuedTokens.at(-1)!;
    const kubeconfig = issuedKubeconfigs.at(-1)!;
    expect(token).toMatch(/^viewer-/);
    for (const secret of [token, kubeconfig]) {
      expect(JSON.stringify(answer)).not.toContain(secret);
      expect(JSON.stringify(logged)).not.toContain(secret);
    }
    const tables = await database.db.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
    expect(tables.length).toBeGreaterThan(5);
    // (The search finds what a table holds: the shoot's name in its row.)
    const control = await database.db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "shoots" t WHERE t::text LIKE $1`,
      "%cluster-1%",
    );
    expect(Number(control[0].n)).toBeGreaterThan(0);
    for (const { name } of tables) {
      const found = await database.db.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM "${name}" t WHERE t::text LIKE $1 OR t::text LIKE $2`,
        `%${token}%`,
        `%${kubeconfig}%`,
      );
      expect(Number(found[0].n), `table ${name}`).toBe(0);
    }
  });

  it("sends a person's own ID token to the garden in oidc mode", async () => {
    const token = `oidc-${randomUUID()}`;
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const idToken = `${b64({ alg: "RS256" })}.${b64({ sub: token, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
    await database.db.user.create({ data: { id: "u-grace", name: "Grace", email: "grace@example.com" } });
    await database.db.account.create({
      data: { id: "a-grace", accountId: "grace", providerId: "oidc", userId: "u-grace", idToken },
    });
    garden.addToken(idToken, "grace@example.com", ["node-readers"]);
    const grace: GardenIdentity = {
      kind: "person",
      user: "grace@example.com",
      groups: ["node-readers"],
      userId: "u-grace",
    };
    const answer = await readShootNodes(nodesOf("oidc"), asked("cluster-1", grace, true));
    expect(answer.source).toBe("shoot");
    expect(garden.requests[0]).toMatchObject({
      path: `${SHOOTS}/cluster-1/viewerkubeconfig`,
      user: "grace@example.com",
    });
    expect(garden.requests[0].impersonatedBy).toBeUndefined();
    expect(shootServer.requests[0].user).toBe("gardener.cloud:viewer:grace@example.com");
  });

  it("passes on the garden's 403 for a person without create on shoots/viewerkubeconfig", async () => {
    const refused = await thrown(readShootNodes(nodesOf("impersonation"), asked("cluster-1", BOB, true)));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain(
      `shoots.core.gardener.cloud "cluster-1" is forbidden: User "bob@example.com" cannot create resource "shoots/viewerkubeconfig" in API group "core.gardener.cloud" in the namespace "${NS}"`,
    );
    expect(refused.extensions).toMatchObject({ verb: "create", resource: "shoots/viewerkubeconfig" });
    expect(shootServer.requests).toEqual([]);
  });

  it("refuses in read-only mode without asking the garden, saying why", async () => {
    const refused = await thrown(readShootNodes(nodesOf("read-only"), asked("cluster-1", ADA, true)));
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/ALMANAC_GARDEN_IDENTITY=read-only/);
    expect(refused.message).toMatch(/viewer kubeconfig/);
    expect(garden.requests).toEqual([]);
  });

  it("refuses the admin token, whose identity is Almanac's own, without asking the garden", async () => {
    const refused = await thrown(
      readShootNodes(nodesOf("impersonation"), asked("cluster-1", { kind: "almanac" }, true)),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/Almanac's own identity/);
    expect(garden.requests).toEqual([]);
  });

  it("answers the garden's own refusal for a shoot it issues no kubeconfig for (no advertised address)", async () => {
    const refused = await thrown(readShootNodes(nodesOf("impersonation"), asked("cluster-3", ADA, true)));
    expect(refused.status).toBe(422);
    expect(refused.message).toMatch(/no suitable advertised address for kube-apiserver/);
  });

  it("names the shoot's API server when it refuses the credential (an expired one)", async () => {
    const expiring = await startStandInShoot();
    try {
      garden.serveShoot(NS, "cluster-2", {
        issueViewerKubeconfig(user, groups, seconds) {
          const issued = expiring.issueViewerKubeconfig(user, groups, seconds);
          expiring.expireAll();
          return issued;
        },
      });
      const refused = await thrown(readShootNodes(nodesOf("impersonation"), asked("cluster-2", ADA, true)));
      expect(refused.status).toBe(502);
      expect(refused.message).toContain(`The API server of Shoot ${NS}/cluster-2 (${expiring.url})`);
      expect(refused.message).toMatch(/HTTP 401.*Unauthorized/);
      expect(expiring.requests.every((r) => r.user === undefined)).toBe(true);
    } finally {
      await expiring.close();
    }
  });

  it("will not use a plain-HTTP kubeconfig unless the tests' wiring allows it: its token is never sent", async () => {
    const production = kubernetesShootNodes(database.db, kubeConfig, "impersonation");
    const refused = await thrown(readShootNodes(production, asked("cluster-1", ADA, true)));
    expect(refused.status).toBe(503);
    expect(refused.message).toContain(`the garden answered a viewer kubeconfig for ${NS}/cluster-1 that Almanac`);
    expect(refused.message).toContain(`${shootServer.url} is not https://`);
    expect(shootServer.requests).toEqual([]);
  });

  it("names the shoot's API server when it does not answer: 503, not a 500", async () => {
    const gone = await startStandInShoot();
    garden.serveShoot(NS, "cluster-2", gone);
    await gone.close();
    const refused = await thrown(readShootNodes(nodesOf("impersonation"), asked("cluster-2", ADA, true)));
    expect(refused.status).toBe(503);
    expect(refused.message).toContain(`The API server of Shoot ${NS}/cluster-2 (${gone.url}) did not answer`);
    expect(refused.message).toMatch(/ECONNREFUSED/);
  });
});

describe("the stand-in shoot API server", () => {
  it("answers viewers read-only, refuses Secrets and writes in RBAC's words, and refuses an expired token", async () => {
    const issued = shootServer.issueViewerKubeconfig(
      "gardener.cloud:viewer:ada",
      ["gardener.cloud:project:viewers"],
      600,
    );
    const token = /token: (\S+)/.exec(issued.kubeconfig)![1];
    const get = (path: string, method = "GET") =>
      fetch(`${shootServer.url}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    const list = await get("/api/v1/nodes?labelSelector=worker.gardener.cloud/pool%3Dpool-b");
    expect(await list.json()).toMatchObject({
      kind: "NodeList",
      apiVersion: "v1",
      items: [{ metadata: { name: "shoot--dev--cluster-1-pool-b-1" } }],
    });
    const secrets = await get("/api/v1/namespaces/kube-system/secrets");
    expect(secrets.status).toBe(403);
    expect(await secrets.json()).toMatchObject({
      kind: "Status",
      reason: "Forbidden",
      message:
        'secrets is forbidden: User "gardener.cloud:viewer:ada" cannot list resource "secrets" in API group "" in the namespace "kube-system"',
    });
    expect((await get("/api/v1/nodes", "DELETE")).status).toBe(403);
    const other = await startStandInShoot();
    try {
      const mine = other.issueViewerKubeconfig("gardener.cloud:viewer:ada", ["gardener.cloud:project:viewers"], 600);
      other.expireAll();
      const expired = await fetch(`${other.url}/api/v1/nodes`, {
        headers: { Authorization: `Bearer ${/token: (\S+)/.exec(mine.kubeconfig)![1]}` },
      });
      expect(expired.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("has the garden refuse a validity under 10 minutes as Gardener does", async () => {
    const answer = await fetch(`${garden.url}${SHOOTS}/cluster-1/viewerkubeconfig`, {
      method: "POST",
      headers: { Authorization: `Bearer ${garden.almanacToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ spec: { expirationSeconds: 60 } }),
    });
    expect(answer.status).toBe(422);
    expect((await answer.json()).message).toContain(
      "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
    );
  });
});
