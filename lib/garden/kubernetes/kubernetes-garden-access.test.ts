// What a person may read in a live garden, asked of the stand-in garden through client-node as
// Kubernetes would answer: SubjectAccessReviews for "list shoots", cluster-wide first, then per
// namespace; kept half a minute and shared; a garden that cannot answer fails the read.
import { createServer, type Server } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "../../observability/logger.ts";
import { startStandInGarden, type StandInGarden } from "../../../tests/support/stand-in-garden.ts";
import type { GardenIdentity } from "../../auth/garden-identity.ts";
import { GardenUnavailableError } from "../../auth/garden-access.ts";
import { effectiveGroups, kubernetesGardenAccess } from "./kubernetes-garden-access.ts";

let garden: StandInGarden;
let kubeConfig: KubeConfig;
const almanacRules = () => [{ users: [garden.almanacUser], verbs: ["*"], resources: ["*"] }];

beforeAll(async () => {
  garden = await startStandInGarden();
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig());
});
afterAll(async () => {
  await garden?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});
beforeEach(() => {
  // Failed reviews are logged; the tests below check what they throw.
  vi.spyOn(logger(), "warn").mockImplementation(() => {});
  garden.rbac.splice(0, garden.rbac.length, ...almanacRules());
  garden.requests.length = 0;
});

const person = (user: string, groups: string[] = []): GardenIdentity => ({ kind: "person", user, groups });
const NAMESPACES = ["garden-dev", "garden-prod", "garden-ops"];
const reviews = () => garden.requests.filter((r) => r.path.endsWith("/subjectaccessreviews"));
const listShoots = (who: { users?: string[]; groups?: string[] }, namespaces?: string[]) =>
  garden.rbac.push({ ...who, verbs: ["list"], resources: ["shoots"], ...(namespaces ? { namespaces } : {}) });

describe("kubernetesGardenAccess", () => {
  it("answers all for a person who may list shoots cluster-wide, without looking at the namespaces", async () => {
    listShoots({ users: ["ada@example.com"] });
    const access = kubernetesGardenAccess(kubeConfig);
    const candidates = vi.fn(() => NAMESPACES);
    await expect(access.readableNamespaces(person("ada@example.com"), candidates)).resolves.toBe("all");
    expect(candidates).not.toHaveBeenCalled();
    await expect(access.mayRead(person("ada@example.com"), "garden-prod")).resolves.toBe(true);
    // One review each, sent by Almanac itself for the person, for list shoots in Gardener's group.
    expect(reviews().map((r) => r.user)).toEqual([garden.almanacUser, garden.almanacUser]);
    expect(reviews()[0].body).toMatchObject({
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: {
        user: "ada@example.com",
        groups: ["system:authenticated"],
        resourceAttributes: { verb: "list", group: "core.gardener.cloud", resource: "shoots" },
      },
    });
    expect((reviews()[0].body as any).spec.resourceAttributes.namespace).toBeUndefined();
    expect((reviews()[1].body as any).spec.resourceAttributes.namespace).toBe("garden-prod");
  });

  it("answers the candidate namespaces a person may list shoots in, when that is not everywhere", async () => {
    listShoots({ users: ["bob@example.com"] }, ["garden-dev"]);
    const access = kubernetesGardenAccess(kubeConfig);
    const readable = await access.readableNamespaces(person("bob@example.com"), async () => NAMESPACES);
    expect(readable).toEqual(new Set(["garden-dev"]));
    await expect(access.mayRead(person("bob@example.com"), "garden-dev")).resolves.toBe(true);
    await expect(access.mayRead(person("bob@example.com"), "garden-prod")).resolves.toBe(false);
    // Cluster-wide, then each namespace once: mayRead was answered from what the list asked.
    expect(reviews()).toHaveLength(1 + NAMESPACES.length);
  });

  it("answers nothing for a person without rights, and another verb or resource does not count", async () => {
    garden.rbac.push({ users: ["carl@example.com"], verbs: ["get", "watch"], resources: ["shoots"] });
    garden.rbac.push({ users: ["carl@example.com"], verbs: ["list"], resources: ["seeds", "projects"] });
    const access = kubernetesGardenAccess(kubeConfig);
    await expect(access.readableNamespaces(person("carl@example.com"), () => NAMESPACES)).resolves.toEqual(new Set());
    await expect(access.mayRead(person("carl@example.com"), "garden-dev")).resolves.toBe(false);
  });

  it("counts the person's groups, and system:authenticated as Kubernetes adds it", async () => {
    listShoots({ groups: ["team-prod"] }, ["garden-prod"]);
    listShoots({ groups: ["system:authenticated"] }, ["garden-ops"]);
    const access = kubernetesGardenAccess(kubeConfig);
    await expect(
      access.readableNamespaces(person("dora@example.com", ["team-prod", "team-x"]), () => NAMESPACES),
    ).resolves.toEqual(new Set(["garden-prod", "garden-ops"]));
    await expect(access.readableNamespaces(person("eve@example.com"), () => NAMESPACES)).resolves.toEqual(
      new Set(["garden-ops"]),
    );
    expect(effectiveGroups(["a", "a", "system:unauthenticated"])).toEqual(["a", "system:unauthenticated"]);
  });

  it("asks nothing for Almanac's own identity (the admin token): it reads everything", async () => {
    const access = kubernetesGardenAccess(kubeConfig);
    await expect(access.readableNamespaces({ kind: "almanac" }, () => NAMESPACES)).resolves.toBe("all");
    await expect(access.mayRead({ kind: "almanac" }, "garden-dev")).resolves.toBe(true);
    expect(reviews()).toHaveLength(0);
  });

  it("keeps each answer half a minute per user and groups, and shares a review under way", async () => {
    listShoots({ users: ["bob@example.com"] }, ["garden-dev"]);
    let clock = 1_000_000;
    const access = kubernetesGardenAccess(kubeConfig, { now: () => clock });
    const bob = person("bob@example.com", ["b", "a"]);
    const [first, second] = await Promise.all([
      access.readableNamespaces(bob, () => NAMESPACES),
      access.readableNamespaces(person("bob@example.com", ["a", "b", "a"]), () => NAMESPACES),
    ]);
    expect(first).toEqual(new Set(["garden-dev"]));
    expect(second).toEqual(first);
    expect(reviews()).toHaveLength(1 + NAMESPACES.length);

    // Within the half minute nothing is asked again, even though the garden's RBAC changed.
    listShoots({ users: ["bob@example.com"] }, ["garden-prod"]);
    clock += 29_000;
    await expect(access.readableNamespaces(bob, () => NAMESPACES)).resolves.toEqual(new Set(["garden-dev"]));
    await expect(access.mayRead(bob, "garden-prod")).resolves.toBe(false);
    expect(reviews()).toHaveLength(1 + NAMESPACES.length);
    // Other groups are another identity.
    await access.mayRead(person("bob@example.com", ["a"]), "garden-prod");
    expect(reviews()).toHaveLength(2 + NAMESPACES.length);

    // After it, the change is seen.
    clock += 1_001;
    await expect(access.readableNamespaces(bob, () => NAMESPACES)).resolves.toEqual(
      new Set(["garden-dev", "garden-prod"]),
    );
    expect(reviews()).toHaveLength(3 + 2 * NAMESPACES.length);
  });

  it("fails closed when Almanac may not review access, and does not keep the failure", async () => {
    garden.rbac.splice(0, garden.rbac.length, {
      users: [garden.almanacUser],
      verbs: ["*"],
      resources: ["shoots", "seeds", "projects", "cloudprofiles"],
    });
    listShoots({ users: ["ada@example.com"] });
    const access = kubernetesGardenAccess(kubeConfig);
    const failure = access.readableNamespaces(person("ada@example.com"), () => NAMESPACES);
    await expect(failure).rejects.toBeInstanceOf(GardenUnavailableError);
    await expect(failure).rejects.toThrow(
      "The garden could not say what you may read: it refused Almanac's access review (HTTP 403); Almanac's own identity needs create on subjectaccessreviews.authorization.k8s.io. Try again shortly.",
    );
    garden.rbac.push(...almanacRules());
    await expect(access.readableNamespaces(person("ada@example.com"), () => NAMESPACES)).resolves.toBe("all");
  });

  it("fails closed when the garden cannot be reached or does not answer in time", async () => {
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new KubeConfig();
    nowhere.loadFromOptions({
      clusters: [{ name: "gone", server: `http://127.0.0.1:${closedPort}`, skipTLSVerify: true }],
      users: [{ name: "almanac", token: "t" }],
      contexts: [{ name: "gone", cluster: "gone", user: "almanac" }],
      currentContext: "gone",
    });
    await expect(
      kubernetesGardenAccess(nowhere).readableNamespaces(person("ada@example.com"), () => NAMESPACES),
    ).rejects.toThrow(/^The garden could not say what you may read: it cannot be reached \(ECONNREFUSED\)/);

    // A server that takes the connection and never answers.
    const sockets: import("node:net").Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    const slow = new KubeConfig();
    slow.loadFromOptions({
      clusters: [{ name: "slow", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: "almanac", token: "t" }],
      contexts: [{ name: "slow", cluster: "slow", user: "almanac" }],
      currentContext: "slow",
    });
    try {
      await expect(
        kubernetesGardenAccess(slow, { timeoutMs: 200 }).mayRead(person("ada@example.com"), "garden-dev"),
      ).rejects.toThrow(
        "The garden could not say what you may read: it did not answer within 0.2 s. Try again shortly.",
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
