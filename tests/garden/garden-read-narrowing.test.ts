// What a person may read in a live garden with thousands of projects: after the cluster-wide
// "list shoots" review says no, only the projects whose members (the mirrored spec.members) name
// the person or one of their groups are asked about, over keep-alive connections, and the answers
// are kept per person. Against the stand-in garden, which records every request and counts the
// connections opened to it, and a real PostgreSQL mirror of 2,000 projects.
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { LANDSCAPE } from "../../lib/api/roles.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { GardenKubeConfig } from "../../lib/garden/kubernetes/garden-kubeconfig.ts";
import { kubernetesGardenAccess } from "../../lib/garden/kubernetes/kubernetes-garden-access.ts";
import type { Project } from "../../lib/gardener/types.ts";
import { readable } from "../../lib/auth/readable-namespaces.ts";
import { insertProjects } from "../../lib/store/projects.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

const PROJECTS = 2_000;
let database: TestDatabase;
let garden: StandInGarden;
let kubeConfig: GardenKubeConfig;
let directory: string;

const project = (i: number, members: Project["spec"]["members"]): Project => ({
  metadata: { name: `p${i}` },
  spec: { namespace: `garden-p${i}`, members },
});
const someoneElse = (i: number) => [
  { kind: "User", name: `owner-${i}@example.com`, apiGroup: "rbac.authorization.k8s.io" },
];

const ada: Principal = {
  kind: "user",
  id: "ada",
  name: "Ada",
  email: "ada@example.com",
  groups: ["team-a"],
  company: true,
  bindings: [{ role: "viewer", scope: LANDSCAPE }],
};

beforeAll(async () => {
  database = await createTestDatabase();
  garden = await startStandInGarden();
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "read-narrowing-"));
  kubeConfig = new GardenKubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig({ file: path.join(directory, "kubeconfig") }));
  const projects = Array.from({ length: PROJECTS }, (_, i) => project(i, someoneElse(i)));
  // Ada is a member of three: by name, through her group, and through system:authenticated, the
  // group the garden gives every signed-in user.
  projects[17] = project(17, [...someoneElse(17), { kind: "User", name: "ada@example.com" }]);
  projects[900] = project(900, [{ kind: "Group", name: "team-a" }]);
  projects[1999] = project(1999, [{ kind: "Group", name: "system:authenticated" }]);
  await database.db.$transaction((tx) => insertProjects(tx, projects));
  // Almanac holds only what deploy/garden-rbac.yaml grants it (read-only), not the stand-in's "*".
  const role = parseAllDocuments(fs.readFileSync("deploy/garden-rbac.yaml", "utf8"))
    .map((d) => d.toJS())
    .find((d) => d.kind === "ClusterRole") as { rules: { resources: string[]; verbs: string[] }[] };
  garden.rbac.splice(
    0,
    garden.rbac.length,
    ...role.rules.map((r) => ({ users: [garden.almanacUser], verbs: r.verbs, resources: r.resources })),
  );
  // The garden lets her list shoots in two of them, and (outside the projects' members) in one more.
  garden.rbac.push({
    users: ["ada@example.com"],
    verbs: ["list"],
    resources: ["shoots"],
    namespaces: ["garden-p17", "garden-p900", "garden-p5"],
  });
});
afterAll(async () => {
  await garden?.close();
  await database?.drop();
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  garden.requests.length = 0;
});

const reviews = () => garden.requests.filter((r) => r.path.endsWith("/subjectaccessreviews"));

describe("read checks in a garden of 2,000 projects", () => {
  it("asks about the projects that name the person, not all 2,000, over reused connections, and keeps the answers", async () => {
    const access = kubernetesGardenAccess(kubeConfig);
    const connectionsBefore = garden.connections();
    const answer = await readable(database.db, ada, access);
    expect(answer.namespaces).toEqual(new Set(["garden-p17", "garden-p900"]));
    expect(answer.narrowedByGarden).toBe(true);
    // The cluster-wide review, then one per project that names her.
    const asked = reviews().map((r) => (r.body as { spec: { resourceAttributes: { namespace?: string } } }).spec);
    console.log(
      `reviews for ${PROJECTS} projects: ${asked.length}; connections opened: ${garden.connections() - connectionsBefore}`,
    );
    expect(asked).toHaveLength(4);
    expect(asked.map((spec) => spec.resourceAttributes.namespace ?? "(cluster)").sort()).toEqual(
      ["(cluster)", "garden-p17", "garden-p1999", "garden-p900"].sort(),
    );
    // Keep-alive connections: the cluster-wide review's is reused by the three sent together,
    // which need two more at most (a new connection per review would be four).
    expect(garden.connections() - connectionsBefore).toBeLessThanOrEqual(3);

    // Asked again within the half minute: from the answers kept for her, no review at all.
    garden.requests.length = 0;
    expect((await readable(database.db, ada, access)).namespaces).toEqual(new Set(["garden-p17", "garden-p900"]));
    expect(reviews()).toEqual([]);
  });

  it("still answers all at once, with one review, for a landscape-wide reader", async () => {
    garden.rbac.push({ users: ["root@example.com"], verbs: ["list"], resources: ["shoots"] });
    const access = kubernetesGardenAccess(kubeConfig);
    const answer = await readable(database.db, { ...ada, id: "root", email: "root@example.com", groups: [] }, access);
    expect(answer.namespaces).toBe("all");
    expect(reviews()).toHaveLength(1);
  });
});
