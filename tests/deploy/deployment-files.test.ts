// The Dockerfile and the Kustomize base in deploy/kubernetes, checked without a container engine
// or kubectl (none runs on these machines): every manifest against the Kubernetes schemas
// (kubernetes-models validates offline), the references between them, and the Dockerfile with
// dockerfile-utils' linter plus what it must do (two stages, production dependencies, a user other
// than root, a health check).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { validate as lintDockerfile } from "dockerfile-utils";
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const base = path.join(repo, "deploy/kubernetes");

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

function read(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(path.join(base, file), "utf8")).map((doc) => {
    expect(doc.errors, file).toEqual([]);
    return doc.toJSON() as Manifest;
  });
}

const kustomization = read("kustomization.yaml")[0] as Manifest & { resources: string[]; namespace: string };
const manifests = kustomization.resources.flatMap(read);
const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const one = <T>(kind: string) => {
  const found = byKind(kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as unknown as T;
};

// The kubernetes-models class of each kind the base uses.
async function modelOf(m: Manifest): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = m.apiVersion.includes("/") ? m.apiVersion.split("/") : ["", m.apiVersion];
  const modulePath = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  const module = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = module[m.kind];
  expect(model, `${m.apiVersion} ${m.kind}`).toBeDefined();
  return model;
}

describe("the Kustomize base", () => {
  it("lists every manifest file of the folder but the example Secret", () => {
    const files = readdirSync(base).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== "secret.example.yaml").sort());
  });

  it("validates every manifest (and the example Secret) against the Kubernetes schemas", async () => {
    for (const m of [...manifests, ...read("secret.example.yaml")]) {
      const Model = await modelOf(m);
      expect(() => new Model(m).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
  });

  it("the schema check refuses a broken manifest, so the check above means something", async () => {
    const deployment = one<Manifest>("Deployment");
    const Model = await modelOf(deployment);
    const broken = structuredClone(deployment) as Manifest & { spec: { replicas: unknown } };
    broken.spec.replicas = "three";
    expect(() => new Model(broken).validate()).toThrow(/replicas/);
  });

  type Container = {
    ports: { name: string; containerPort: number }[];
    env: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
    readinessProbe: { httpGet: { path: string; port: string } };
    livenessProbe: { httpGet: { path: string; port: string } };
    resources: { requests: Record<string, string>; limits: Record<string, string> };
    securityContext: { allowPrivilegeEscalation: boolean };
  };
  type Deployment = {
    spec: {
      replicas: number;
      selector: { matchLabels: Record<string, string> };
      template: {
        metadata: { labels: Record<string, string> };
        spec: { serviceAccountName: string; securityContext: { runAsNonRoot: boolean }; containers: Container[] };
      };
    };
  };
  const deployment = one<Deployment>("Deployment");
  const podLabels = deployment.spec.template.metadata.labels;
  const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => podLabels[k] === v);
  const container = deployment.spec.template.spec.containers[0];

  it("runs several replicas, unprivileged, with probes on Almanac's health endpoints and resources", () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(selects(deployment.spec.selector.matchLabels)).toBe(true);
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    const portNames = container.ports.map((p) => p.name);
    expect(portNames).toContain(container.readinessProbe.httpGet.port);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
    // The app's own routes answer the probes.
    for (const route of ["healthz", "readyz"]) expect(readdirSync(path.join(repo, "app", route))).toContain("route.ts");
  });

  it("reads DATABASE_URL from a Secret whose example names the same key", () => {
    const ref = container.env.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef;
    const example = read("secret.example.yaml")[0] as Manifest & { stringData: Record<string, string> };
    expect(ref).toEqual({ name: example.metadata.name, key: "DATABASE_URL" });
    expect(example.stringData.DATABASE_URL).toMatch(/^postgresql:\/\//);
    expect(example.metadata.namespace).toBe(kustomization.namespace);
  });

  it("points the Service, the disruption budget and the network policy at the pods", () => {
    const service = one<{ spec: { selector: Record<string, string>; ports: { targetPort: string }[] } }>("Service");
    expect(selects(service.spec.selector)).toBe(true);
    expect(container.ports.map((p) => p.name)).toContain(service.spec.ports[0].targetPort);
    const budget = one<{ spec: { selector: { matchLabels: Record<string, string> }; maxUnavailable: number } }>(
      "PodDisruptionBudget",
    );
    expect(selects(budget.spec.selector.matchLabels)).toBe(true);
    expect(budget.spec.maxUnavailable).toBeLessThan(deployment.spec.replicas);
    const policy = one<{
      spec: { podSelector: { matchLabels: Record<string, string> }; ingress: { ports: { port: number }[] }[] };
    }>("NetworkPolicy");
    expect(selects(policy.spec.podSelector.matchLabels)).toBe(true);
    expect(policy.spec.ingress.flatMap((i) => i.ports.map((p) => p.port))).toContain(container.ports[0].containerPort);
    const account = one<Manifest>("ServiceAccount");
    expect(deployment.spec.template.spec.serviceAccountName).toBe(account.metadata.name);
  });
});

describe("the Dockerfile", () => {
  const dockerfile = readFileSync(path.join(repo, "Dockerfile"), "utf8");
  const instructions = dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.trim() && !line.trim().startsWith("#"));

  it("has no problem dockerfile-utils' linter reports", () => {
    expect(lintDockerfile(dockerfile)).toEqual([]);
    // The linter does report problems.
    expect(lintDockerfile("FROM node:24\nEXPOSE abc\n")).not.toEqual([]);
  });

  it("builds in one stage and runs from another, with production dependencies, as a user other than root, with a health check", () => {
    const froms = instructions.filter((l) => l.startsWith("FROM "));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    const runStage = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
    expect(instructions.some((l) => /npm prune --omit=dev/.test(l))).toBe(true);
    expect(runStage.find((l) => l.startsWith("USER "))).toMatch(/^USER (?!root\b|0\b)\S+/);
    expect(runStage.some((l) => l.startsWith("HEALTHCHECK ") && l.includes("/healthz"))).toBe(true);
    expect(runStage.find((l) => l.startsWith("CMD "))).toContain("scripts/start.mjs");
  });
});
