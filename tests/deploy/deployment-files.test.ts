// The Dockerfile and the Kustomize base in deploy/kubernetes, checked without a container engine
// or kubectl (none runs on these machines): every manifest against the Kubernetes schemas
// (kubernetes-models validates offline), the references between them, and the Dockerfile with
// dockerfile-utils' linter plus what it must do (two stages, production dependencies, a user other
// than root, a health check).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { validate as lintDockerfile } from "dockerfile-utils";
import { parseAllDocuments, parse as parseYaml } from "yaml";
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

/** A file of the repository (deploy/garden-rbac*.yaml). */
function readRepo(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(path.join(repo, file), "utf8")).map((doc) => {
    expect(doc.errors, file).toEqual([]);
    return doc.toJSON() as Manifest;
  });
}

const GARDEN_RBAC_FILES = [
  "deploy/garden-rbac.yaml",
  "deploy/garden-rbac-admin-token.yaml",
  "deploy/garden-rbac-impersonation.yaml",
];

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
  it("lists every manifest file of the folder but the example Secrets", () => {
    const files = readdirSync(base).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => !f.endsWith(".example.yaml")).sort());
  });

  it("validates every manifest (and the example Secrets, and the garden's RBAC) against the Kubernetes schemas", async () => {
    const garden = GARDEN_RBAC_FILES.flatMap((file) => readRepo(file));
    for (const m of [
      ...manifests,
      ...read("secret.example.yaml"),
      ...read("garden-kubeconfig.example.yaml"),
      ...garden,
    ]) {
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

// What an operator applies to the garden (deploy/garden-rbac*.yaml) and what runs the pods
// (deploy/kubernetes) name each other: the service account, its namespace, the Secrets the token
// kubeconfig comes from, the paths inside the mounted volume.
describe("the garden's RBAC and the Deployment, applied to each other", () => {
  type Volume = {
    name: string;
    projected?: { sources: { secret: { name: string; optional?: boolean; items: { key: string; path: string }[] } }[] };
  };
  type PodSpec = {
    serviceAccountName: string;
    volumes: Volume[];
    containers: { volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[] }[];
  };
  const pod = one<{ spec: { template: { spec: PodSpec } } }>("Deployment").spec.template.spec;
  const account = one<Manifest>("ServiceAccount");
  const examples = read("garden-kubeconfig.example.yaml") as (Manifest & { stringData: Record<string, string> })[];
  const gardenVolume = pod.volumes.find((v) => v.name === "garden")!;
  const mount = pod.containers[0].volumeMounts.find((m) => m.name === "garden")!;
  /** Where the Deployment puts a Secret's key: the mount path and the item's path. */
  const mountedAt = (secret: string, key: string) => {
    const source = gardenVolume.projected!.sources.find((s) => s.secret.name === secret);
    const item = source?.secret.items.find((i) => i.key === key);
    return item && path.posix.join(mount.mountPath, item.path);
  };

  it("binds, in every garden RBAC file, the service account (name and namespace) the pods run as", () => {
    // In-cluster, the pods' own service account is the identity; with a token kubeconfig, the
    // garden's service account of the same name, which deploy/garden-rbac.yaml makes there.
    expect(pod.serviceAccountName).toBe(account.metadata.name);
    const subject = { kind: "ServiceAccount", name: account.metadata.name, namespace: kustomization.namespace };
    for (const file of GARDEN_RBAC_FILES) {
      const binding = readRepo(file).find((m) => m.kind === "ClusterRoleBinding") as Manifest & { subjects: unknown[] };
      expect(binding.subjects, file).toEqual([subject]);
    }
    const made = readRepo("deploy/garden-rbac.yaml").find((m) => m.kind === "ServiceAccount")!;
    expect(made.metadata).toEqual({ name: subject.name, namespace: subject.namespace });
  });

  it("mounts the Secrets the example shows, read-only and optional, in the Deployment's namespace", () => {
    expect(mount.readOnly).toBe(true);
    const mounted = gardenVolume.projected!.sources.map((s) => s.secret);
    expect(mounted.map((s) => s.name).sort()).toEqual(examples.map((e) => e.metadata.name).sort());
    for (const secret of mounted) {
      expect(secret.optional, secret.name).toBe(true);
      const example = examples.find((e) => e.metadata.name === secret.name)!;
      expect(example.metadata.namespace).toBe(kustomization.namespace);
      for (const item of secret.items) expect(Object.keys(example.stringData), secret.name).toContain(item.key);
    }
  });

  it("has the kubeconfig's tokenFile name the mounted token, and GARDEN_KUBECONFIG the mounted kubeconfig", () => {
    const kubeconfigAt = mountedAt("almanac-garden-kubeconfig", "kubeconfig")!;
    const tokenAt = mountedAt("almanac-garden-token", "token")!;
    const kubeconfig = parseYaml(
      examples.find((e) => e.metadata.name === "almanac-garden-kubeconfig")!.stringData.kubeconfig,
    );
    const tokenFile: string = kubeconfig.users[0].user.tokenFile;
    expect(path.posix.resolve(path.posix.dirname(kubeconfigAt), tokenFile)).toBe(tokenAt);
    // The ConfigMap shows the setting to turn it on.
    const configMap = readFileSync(path.join(base, "configmap.yaml"), "utf8");
    expect(configMap).toContain(`GARDEN_KUBECONFIG: ${kubeconfigAt}`);
  });

  it("has the token-requestor request the token of the service account the garden RBAC binds", () => {
    const token = examples.find((e) => e.metadata.name === "almanac-garden-token") as unknown as Manifest & {
      metadata: { annotations: Record<string, string> };
    };
    expect(token.metadata.labels?.["resources.gardener.cloud/purpose"]).toBe("token-requestor");
    expect(token.metadata.annotations["serviceaccount.resources.gardener.cloud/name"]).toBe(account.metadata.name);
    expect(token.metadata.annotations["serviceaccount.resources.gardener.cloud/namespace"]).toBe(
      kustomization.namespace,
    );
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
