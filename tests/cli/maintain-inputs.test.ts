// `almanac maintain`: input formats (JSON, List, multi-document YAML, stdin, several files), output
// order, --now, and the annotations maintenance writes (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go, maintainOperation and
// maintainTasks).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { almanac, almanacFails, byName, fixture, maintainJson, ROOT } from "./run-almanac.ts";

const TASKS = "deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress";
const NOW = "2025-05-05T05:05:05Z";

describe("maintain: a NamespacedCloudProfile in the input", () => {
  it("reads a shoot naming one against its status.cloudProfileSpec, not the CloudProfile of the same name", () => {
    const out = maintainJson([fixture("namespaced-profile.yaml")], "2019-04-20T22:30:00Z");
    // The parent's 1.10.12 has expired: forced. The project's lasts until May: kept.
    expect(byName(out, "of-the-parent").spec.kubernetes.version).toBe("1.10.13");
    expect(byName(out, "of-the-project").spec.kubernetes.version).toBe("1.10.12");
  });

  it("refuses one Gardener has not resolved yet, naming it", () => {
    const text = readFileSync(fixture("namespaced-profile.yaml"), "utf8").replace(
      /^status:\n {2}cloudProfileSpec:[\s\S]*?---/m,
      "---",
    );
    const stderr = almanacFails(["maintain", "-f", "-", "--now", "2019-04-20T22:30:00Z"], { input: text });
    expect(stderr).toContain(
      'Shoot garden-dev/of-the-project refers to namespaced cloud profile "garden-dev/aws", which has no status.cloudProfileSpec yet',
    );
  });
});

describe("maintain: inputs and output order", () => {
  it("reads a JSON file holding a List, with the profile between the shoots", () => {
    const out = maintainJson([fixture("list.json")], NOW);
    expect(out).toMatchObject({ apiVersion: "v1", kind: "List" });
    expect(out.items.map((s) => s.metadata.name)).toEqual(["json-b", "json-a"]);
    expect(out.items.every((s) => s.kind === "Shoot")).toBe(true);
    expect(byName(out, "json-b").spec.kubernetes.version).toBe("1.10.5");
    expect(byName(out, "json-b").status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.0" to "1.10.5". Reason: Automatic update of Kubernetes version configured',
    );
    // Already on the latest patch: unchanged, nothing to report.
    expect(byName(out, "json-a").spec.kubernetes.version).toBe("1.10.5");
    expect(byName(out, "json-a").status?.lastMaintenance).toBeUndefined();
  });

  it("reads multi-document YAML and keeps the shoots in document order", () => {
    const out = maintainJson([fixture("images-gardenlinux.yaml")], NOW);
    expect(out.items.map((s) => s.metadata.name)).toEqual(["glx-auto", "glx-latest", "glx-expired"]);
  });

  it("reads a YAML List document", () => {
    const out = almanac(["maintain", "-f", fixture("status.yaml"), "--now", NOW]);
    expect(out.status).toBe(0);
    const names = JSON.parse(out.stdout).items.map((s: { metadata: { name: string } }) => s.metadata.name);
    expect(names).toHaveLength(14);
    expect(names[0]).toBe("no-last-operation");
    expect(names[13]).toBe("no-namespace");
  });

  it("combines several -f files: profiles from one, shoots from others, items in file order", () => {
    const files = [fixture("shoots-only.yaml"), fixture("profiles-only.yaml"), fixture("list.json")];
    const out = maintainJson(files, NOW);
    expect(out.items.map((s) => s.metadata.name)).toEqual(["split-one", "split-two", "json-b", "json-a"]);
    expect(byName(out, "split-one").spec.kubernetes.version).toBe("1.30.5");
    expect(byName(out, "split-two").spec.kubernetes.version).toBe("1.30.5");
    expect(byName(out, "split-two").status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.29.9" to "1.30.5". Reason: Kubernetes version expired - force update required',
    );

    const reversed = maintainJson(
      [fixture("list.json"), fixture("profiles-only.yaml"), fixture("shoots-only.yaml")],
      NOW,
    );
    expect(reversed.items.map((s) => s.metadata.name)).toEqual(["json-b", "json-a", "split-one", "split-two"]);
  });

  it("prints only Shoots: CloudProfiles and other kinds (a ConfigMap) are left out", () => {
    const out = maintainJson([fixture("shoots-only.yaml"), fixture("profiles-only.yaml")], NOW);
    expect(out.items.map((s) => `${s.kind}/${s.metadata.name}`)).toEqual(["Shoot/split-one", "Shoot/split-two"]);
  });

  it("reads standard input for -f -, also mixed with files", () => {
    const yaml = readFileSync(path.join(ROOT, fixture("k8s-auto-patch.yaml")), "utf8");
    const fromStdin = maintainJson(["-"], NOW, { input: yaml });
    expect(fromStdin.items.map((s) => s.spec.kubernetes.version)).toEqual(["1.10.5"]);

    const shoots = readFileSync(path.join(ROOT, fixture("shoots-only.yaml")), "utf8");
    const mixed = maintainJson([fixture("list.json"), "-", fixture("profiles-only.yaml")], NOW, { input: shoots });
    expect(mixed.items.map((s) => s.metadata.name)).toEqual(["json-b", "json-a", "split-one", "split-two"]);
  });

  it("skips empty YAML documents (leading, repeated and trailing ---)", () => {
    const yaml = readFileSync(path.join(ROOT, fixture("k8s-auto-patch.yaml")), "utf8");
    const [profile, shoot] = yaml.split(/^---$/m);
    const out = maintainJson(["-"], NOW, { input: `---\n${profile}---\n---\n# only a comment\n---\n${shoot}---\n` });
    expect(out.items.map((s) => [s.metadata.name, s.spec.kubernetes.version])).toEqual([["auto-patch", "1.10.5"]]);
  });

  it("reads JSON from standard input", () => {
    const json = readFileSync(path.join(ROOT, fixture("list.json")), "utf8");
    const out = maintainJson(["-"], NOW, { input: json });
    expect(out.items.map((s) => [s.metadata.name, s.spec.kubernetes.version])).toEqual([
      ["json-b", "1.10.5"],
      ["json-a", "1.10.5"],
    ]);
  });

  it("gives an empty List for input without shoots", () => {
    const out = maintainJson([fixture("profiles-only.yaml")], NOW);
    expect(out).toEqual({ apiVersion: "v1", kind: "List", items: [] });
  });
});

describe("maintain: --now and triggeredTime", () => {
  it("writes triggeredTime as UTC with whole seconds, whatever offset and fraction --now has", () => {
    const out = maintainJson([fixture("k8s-auto-patch.yaml")], "2025-05-05T07:05:05.789+02:00");
    expect(out.items[0].status?.lastMaintenance?.triggeredTime).toBe("2025-05-05T05:05:05Z");
  });

  it("uses the current time without --now", () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const out = maintainJson([fixture("k8s-auto-patch.yaml")]);
    const after = Date.now();
    const triggered = out.items[0].status?.lastMaintenance?.triggeredTime ?? "";
    expect(triggered).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Date.parse(triggered)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(triggered)).toBeLessThanOrEqual(after);
  });

  it("decides expiry at --now: the same input differs before and after the expiration date", () => {
    const before = maintainJson([fixture("docs-force-minor.yaml")], "2019-04-12T21:30:00Z").items[0];
    expect(before.spec.kubernetes.version).toBe("1.10.12");
    const after = maintainJson([fixture("docs-force-minor.yaml")], "2019-04-14T21:30:00Z").items[0];
    expect(after.spec.kubernetes.version).toBe("1.11.10");
  });
});

describe("maintain: annotations and lastMaintenance states", () => {
  const out = () => maintainJson([fixture("annotations.yaml")], "2025-03-01T12:00:00Z");

  it("replaces gardener.cloud/operation=maintain by reconcile and adds the four deploy tasks", () => {
    const shoot = byName(out(), "maintain-now");
    expect(shoot.metadata.annotations).toEqual({
      "gardener.cloud/operation": "reconcile",
      "shoot.gardener.cloud/tasks": TASKS,
    });
    // Only reconcile: not worth a lastMaintenance.
    expect(shoot.status?.lastMaintenance).toBeUndefined();
  });

  it("removes maintain and sets no operation when the shoot has no lastOperation", () => {
    const shoot = byName(out(), "never-reconciled");
    expect(shoot.metadata.annotations).toEqual({ "shoot.gardener.cloud/tasks": TASKS });
  });

  it("sets retry on a failed shoot that asked for it, and removes the needs-retry annotation", () => {
    const shoot = byName(out(), "failed-retry");
    expect(shoot.metadata.annotations).toEqual({
      "gardener.cloud/operation": "retry",
      "shoot.gardener.cloud/tasks": TASKS,
    });
  });

  it("leaves queued operations of a failed shoot without retry wish untouched", () => {
    const shoot = byName(out(), "failed-no-retry");
    expect(shoot.metadata.annotations).toEqual({
      "maintenance.gardener.cloud/operation": "rotate-ssh-keypair",
      "shoot.gardener.cloud/tasks": TASKS,
    });
  });

  it("moves maintenance.gardener.cloud/operation into gardener.cloud/operation (plus reconcile) and reports it", () => {
    const shoot = byName(out(), "queued-operation");
    expect(shoot.metadata.annotations).toEqual({
      "gardener.cloud/operation": "rotate-ssh-keypair;reconcile",
      "shoot.gardener.cloud/tasks":
        "deployInfrastructure,someOtherTask,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress",
    });
    expect(shoot.status?.lastMaintenance).toEqual({
      description: 'All maintenance operations successful. Added "rotate-ssh-keypair;reconcile" operation annotation',
      triggeredTime: "2025-03-01T12:00:00Z",
      state: "Succeeded",
    });
  });

  it("turns a failed lastMaintenance into 'Maintenance succeeded' when nothing is to do, keeping triggeredTime", () => {
    const shoot = byName(out(), "recovered");
    expect(shoot.status?.lastMaintenance).toEqual({
      description: "Maintenance succeeded",
      state: "Succeeded",
      triggeredTime: "2025-01-01T03:00:00Z",
    });
  });

  it("keeps the rest of the shoot as it was (status.lastOperation, spec fields it does not maintain)", () => {
    const shoot = byName(
      maintainJson([fixture("images-coreos.yaml")], "2019-04-14T21:05:00Z"),
      "coreos-cluster",
    ) as unknown as {
      spec: Record<string, any>;
      status: Record<string, any>;
    };
    expect(shoot.status.lastOperation).toEqual({ type: "Reconcile", state: "Succeeded", progress: 100 });
    expect(shoot.spec.maintenance).toEqual({
      timeWindow: { begin: "220000+0100", end: "230000+0100" },
      autoUpdate: { kubernetesVersion: false, machineImageVersion: false },
    });
    expect(shoot.spec.provider.workers[0]).toMatchObject({
      name: "name",
      maxSurge: 1,
      volume: { type: "gp2", size: "20Gi" },
    });
  });
});
