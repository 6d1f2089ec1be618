import { describe, expect, it } from "vitest";
import type { ShootHistoryAnswer } from "./api-types.ts";
import { fieldLabel, historyEntries, valueText } from "./history-entries.ts";

const target = { kind: "Shoot", namespace: "garden-sandbox", name: "scratch-demo" };

// The shapes GET .../history answered after a PATCH and a maintain-now on a demo shoot.
const items: ShootHistoryAnswer["items"] = [
  {
    type: "audit",
    id: "4",
    at: "2026-11-23T09:11:21.757Z",
    actor: "jane@example.com",
    action: "shoot.update",
    target,
    changes: [
      { field: "spec.maintenance.timeWindow.begin", before: "233000+0000", after: "220000+0100" },
      { field: "spec.provider.workers[name=gpu].machine.image.version", before: "1.0.0", after: "1.1.0" },
    ],
    requestId: "4d34",
  },
  {
    type: "maintenance",
    id: "run-1",
    namespace: "garden-sandbox",
    name: "scratch-demo",
    at: "2026-11-23T09:11:12.054Z",
    trigger: "maintain-now",
    state: "Succeeded",
    changes: [
      {
        target: "controlPlane",
        kind: "kubernetes",
        from: "1.31.11",
        to: "1.31.13",
        reason: "Automatic update of Kubernetes version configured",
      },
    ],
    description: "All maintenance operations successful.",
    createdAt: "2026-11-23T09:11:12.054Z",
  },
  {
    type: "audit",
    id: "3",
    at: "2026-11-23T09:11:12.054Z",
    actor: "system:maintenance-controller",
    action: "shoot.maintain-now",
    target,
    changes: [{ field: "spec.kubernetes.version", before: "1.31.11", after: "1.31.13" }],
  },
  {
    type: "audit",
    id: "2",
    at: "2026-11-23T09:11:11.861Z",
    actor: "jane@example.com",
    action: "shoot.maintain-now.request",
    target,
    changes: [{ field: "metadata.annotations[gardener.cloud/operation]", before: null, after: "maintain" }],
    requestId: "cb34",
  },
  {
    type: "maintenance",
    id: "run-0",
    namespace: "garden-sandbox",
    name: "scratch-demo",
    at: "2026-11-22T18:21:00.000Z",
    trigger: "window",
    state: "Failed",
    changes: [],
    description: "Maintenance failed",
    failureReason: "Updates to the Shoot failed to be applied: webhook timeout",
    createdAt: "2026-11-22T18:21:00.000Z",
  },
];

describe("historyEntries", () => {
  const entries = historyEntries(items);

  it("shows a maintenance run and its audit event as one entry, newest first", () => {
    expect(entries.map((e) => [e.title, e.actor, e.state])).toEqual([
      ["Changed the specification", "jane@example.com", "Changed"],
      ["Maintenance (maintain now)", "system:maintenance-controller", "Succeeded"],
      ["Asked for maintenance now", "jane@example.com", "Requested"],
      ["Maintenance in the window", "system:maintenance-controller", "Failed"],
    ]);
  });

  it("keeps from, to and the reason of each change", () => {
    expect(entries[1].changes).toEqual([
      {
        label: "Control plane Kubernetes",
        from: "1.31.11",
        to: "1.31.13",
        reason: "Automatic update of Kubernetes version configured",
      },
    ]);
    expect(entries[0].changes.map((c) => `${c.label}: ${c.from} → ${c.to}`)).toEqual([
      "Maintenance window begin: 233000+0000 → 220000+0100",
      'Pool "gpu" machine image: 1.0.0 → 1.1.0',
    ]);
    expect(entries[2].changes[0]).toEqual({ label: "Operation annotation", from: "—", to: "maintain" });
  });

  it("gives a failed run its failure reason and a red tone", () => {
    expect(entries[3]).toMatchObject({
      tone: "red",
      note: "Updates to the Shoot failed to be applied: webhook timeout",
    });
  });

  it("is empty for an empty history", () => {
    expect(historyEntries([])).toEqual([]);
  });
});

describe("fieldLabel and valueText", () => {
  it("names known fields, pools and annotations, and keeps unknown paths", () => {
    expect(fieldLabel("spec.provider.workers[name=arm].kubernetes.version")).toBe('Pool "arm" Kubernetes version');
    expect(fieldLabel("spec.provider.workers[name=x].machine.image.name")).toBe('Pool "x" machine image name');
    expect(fieldLabel("spec.provider.workers[name=x].machine.image.version")).toBe('Pool "x" machine image');
    expect(fieldLabel("metadata.annotations[confirmation.gardener.cloud/deletion]")).toBe(
      "Annotation confirmation.gardener.cloud/deletion",
    );
    expect(fieldLabel("spec.something.else")).toBe("spec.something.else");
  });

  it("writes booleans as on/off and nothing as a dash", () => {
    expect([valueText(true), valueText(false), valueText(null), valueText(3), valueText({ a: 1 })]).toEqual([
      "on",
      "off",
      "—",
      "3",
      '{"a":1}',
    ]);
  });

  it("writes a list of tolerations as key=value, key", () => {
    expect(fieldLabel("spec.tolerations")).toBe("Seed tolerations");
    expect(valueText([{ key: "dedicated", value: "payments" }, { key: "gpu" }])).toBe("dedicated=payments, gpu");
    expect(fieldLabel("spec.hibernation.schedules")).toBe("Hibernation schedules");
    expect(
      valueText([{ start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" }, { start: "0 22 * * *" }]),
    ).toBe("00 19 * * 1-5 → 00 07 * * 1-5 (Europe/Berlin); 0 22 * * * → — (UTC)");
    expect(valueText([])).toBe("—");
  });
});

describe("a change of the registry mirrors", () => {
  it("reads as upstreams and their hosts, not as JSON", () => {
    const config = {
      apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
      kind: "MirrorConfig",
      mirrors: [
        { upstream: "docker.io", hosts: [{ host: "https://a.example.com" }, { host: "https://b.example.com" }] },
      ],
    };
    const [entry] = historyEntries([
      {
        type: "audit",
        id: "9",
        at: "2026-11-23T09:11:21.757Z",
        actor: "jane@example.com",
        action: "shoot.update",
        target,
        changes: [{ field: "spec.extensions[type=registry-mirror].providerConfig", before: null, after: config }],
      },
    ]);
    expect(entry.changes).toEqual([
      { label: "Registry mirrors", from: "—", to: "docker.io → https://a.example.com, https://b.example.com" },
    ]);
  });
});
