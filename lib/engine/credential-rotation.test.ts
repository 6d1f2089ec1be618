// Automatic credential rotations as Gardener's maintenance controller starts them
// (computeCredentialsToRotationResults): a rotation is due once its period has passed since the
// last completed rotation, or since the shoot's creation if there was none; `last` must lie
// strictly before now - period.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { shoot as buildShoot, worker } from "../../tests/support/builders.ts";
import { credentialRotations, OP_ROTATE_ETCD, OP_ROTATE_OBSERVABILITY, OP_ROTATE_SSH } from "./credential-rotation.ts";

const NOW = Date.parse("2025-06-01T22:30:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

type Kind = "sshKeypair" | "observability" | "etcdEncryptionKey";
const KINDS: { kind: Kind; op: string; started: { description: string; reason: string } }[] = [
  {
    kind: "sshKeypair",
    op: OP_ROTATE_SSH,
    started: { description: "SSH keypair rotation started", reason: "Automatic rotation of SSH keypair configured" },
  },
  {
    kind: "observability",
    op: OP_ROTATE_OBSERVABILITY,
    started: {
      description: "Observability passwords rotation started",
      reason: "Automatic rotation of observability passwords configured",
    },
  },
  {
    kind: "etcdEncryptionKey",
    op: OP_ROTATE_ETCD,
    started: {
      description: "ETCD Encryption key rotation started",
      reason: "Automatic rotation of etcd encryption key configured",
    },
  },
];

/** A shoot with one worker pool, created a year ago, with the given rotation periods and status. */
function shootWith(options: {
  periods?: Partial<Record<Kind, string>>;
  rotation?: Partial<Record<Kind, { lastCompletionTime?: string; lastInitiationTime?: string; phase?: string }>>;
  created?: string | null;
  workers?: number;
  workersSettings?: unknown;
  hibernated?: boolean;
}): Shoot {
  const s = buildShoot("1.31.2", {
    workers: Array.from({ length: options.workers ?? 1 }, (_, i) => worker(`pool-${i}`, "gardenlinux", "1592.4.0")),
  });
  s.metadata = { ...s.metadata, uid: "uid-1" };
  if (options.created !== null) s.metadata.creationTimestamp = options.created ?? iso(NOW - 365 * DAY);
  const credentials: Record<string, { rotationPeriod: string }> = {};
  for (const [kind, period] of Object.entries(options.periods ?? {})) credentials[kind] = { rotationPeriod: period };
  s.spec.maintenance = { ...s.spec.maintenance, autoRotation: { credentials } };
  if (options.workersSettings !== undefined)
    s.spec.provider = { ...s.spec.provider, workersSettings: options.workersSettings };
  if (options.hibernated !== undefined) s.spec.hibernation = { enabled: options.hibernated };
  if (options.rotation) s.status = { ...s.status, credentials: { rotation: options.rotation } };
  return s;
}

const ops = (s: Shoot, now = NOW) => [...credentialRotations(s, now).keys()];

describe.each(KINDS)("$kind", ({ kind, op, started }) => {
  const alone = (extra: Parameters<typeof shootWith>[0] = {}) => shootWith({ periods: { [kind]: "24h" }, ...extra });
  const completedAt = (ms: number) => alone({ rotation: { [kind]: { lastCompletionTime: iso(ms) } } });

  it("is not rotated without autoRotation configured", () => {
    expect(ops(shootWith({}))).toEqual([]);
    const bare = shootWith({});
    delete bare.spec.maintenance;
    expect(ops(bare)).toEqual([]);
  });

  it("starts a rotation once the period has passed since the last completion, with Gardener's texts", () => {
    const results = credentialRotations(completedAt(NOW - 2 * DAY), NOW);
    expect([...results.keys()]).toEqual([op]);
    expect(results.get(op)).toEqual({ ...started, isSuccessful: true });
  });

  it("is not due exactly at the period (the last completion must lie strictly before now - period)", () => {
    expect(ops(completedAt(NOW - DAY))).toEqual([]);
  });

  it("is due one millisecond after the period", () => {
    expect(ops(completedAt(NOW - DAY - 1))).toEqual([op]);
    expect(ops(completedAt(NOW - DAY), NOW + 1)).toEqual([op]);
  });

  it("is not due one millisecond before the period, nor right after a completion", () => {
    expect(ops(completedAt(NOW - DAY + 1))).toEqual([]);
    expect(ops(completedAt(NOW))).toEqual([]);
    expect(ops(completedAt(NOW - HOUR))).toEqual([]);
  });

  it("counts from the creation when it was never rotated", () => {
    expect(ops(alone({ created: iso(NOW - 2 * DAY) }))).toEqual([op]);
    expect(ops(alone({ created: iso(NOW - DAY) }))).toEqual([]);
    expect(ops(alone({ created: iso(NOW - DAY - 1) }))).toEqual([op]);
    // A new shoot is not rotated in its first maintenance.
    expect(ops(alone({ created: iso(NOW) }))).toEqual([]);
    // Status without a completion of this kind counts from the creation too.
    expect(ops(alone({ created: iso(NOW - HOUR), rotation: { [kind]: {} } }))).toEqual([]);
  });

  it("counts a missing creation timestamp as Go's zero time: long ago", () => {
    expect(ops(alone({ created: null }))).toEqual([op]);
  });

  it("goes by the last completion, not the creation, once there was one", () => {
    // Created long ago but completed recently: not due; created recently but completed long ago: due.
    expect(
      ops(alone({ created: iso(NOW - 365 * DAY), rotation: { [kind]: { lastCompletionTime: iso(NOW - HOUR) } } })),
    ).toEqual([]);
    expect(
      ops(alone({ created: iso(NOW - HOUR), rotation: { [kind]: { lastCompletionTime: iso(NOW - 2 * DAY) } } })),
    ).toEqual([op]);
  });

  it("ignores the last initiation time: only a completed rotation resets the period", () => {
    const initiatedRecently = alone({
      rotation: { [kind]: { lastCompletionTime: iso(NOW - 2 * DAY), lastInitiationTime: iso(NOW - HOUR) } },
    });
    expect(ops(initiatedRecently)).toEqual([op]);
    const initiatedOnly = alone({
      created: iso(NOW - 2 * DAY),
      rotation: { [kind]: { lastInitiationTime: iso(NOW - HOUR) } },
    });
    expect(ops(initiatedOnly)).toEqual([op]);
  });

  it("reads the period as a Go duration", () => {
    const s = (period: string, completed: number) =>
      shootWith({ periods: { [kind]: period }, rotation: { [kind]: { lastCompletionTime: iso(completed) } } });
    expect(ops(s("1h30m", NOW - 90 * 60_000))).toEqual([]);
    expect(ops(s("1h30m", NOW - 90 * 60_000 - 1))).toEqual([op]);
    expect(ops(s("168h", NOW - 7 * DAY))).toEqual([]);
    expect(ops(s("168h", NOW - 7 * DAY - 1000))).toEqual([op]);
    expect(ops(s("2160h", NOW - 89 * DAY))).toEqual([]);
    expect(ops(s("2160h", NOW - 91 * DAY))).toEqual([op]);
    expect(ops(s("30m", NOW - 31 * 60_000))).toEqual([op]);
  });

  it("starts nothing for a period Go cannot parse (the API server would have refused it)", () => {
    for (const period of ["7d", "", "1 h", "forever"]) {
      expect(ops(shootWith({ periods: { [kind]: period }, created: iso(NOW - 365 * DAY) })), period).toEqual([]);
    }
  });

  it("starts nothing for a zero period, which Gardener treats as automatic rotation turned off", () => {
    for (const period of ["0", "0s", "0h0m"]) {
      expect(ops(shootWith({ periods: { [kind]: period }, created: iso(NOW - 365 * DAY) })), period).toEqual([]);
    }
  });

  it("does not look at the other kinds' periods or completions", () => {
    const others = KINDS.filter((k) => k.kind !== kind).map((k) => k.kind);
    const s = shootWith({
      periods: { [kind]: "24h", [others[0]]: "2160h", [others[1]]: "2160h" },
      rotation: {
        [kind]: { lastCompletionTime: iso(NOW - 2 * DAY) },
        [others[0]]: { lastCompletionTime: iso(NOW - HOUR) },
        [others[1]]: { lastCompletionTime: iso(NOW - HOUR) },
      },
    });
    expect(ops(s)).toEqual([op]);
  });
});

describe("SSH keypair: only for shoots whose workers accept SSH", () => {
  const due = { periods: { sshKeypair: "24h" }, created: iso(NOW - 2 * DAY) };

  it("is not rotated for a workerless shoot", () => {
    expect(ops(shootWith({ ...due, workers: 0 }))).toEqual([]);
    const noProvider = shootWith(due);
    delete noProvider.spec.provider;
    expect(ops(noProvider)).toEqual([]);
  });

  it("is not rotated when workersSettings.sshAccess.enabled is false", () => {
    expect(ops(shootWith({ ...due, workersSettings: { sshAccess: { enabled: false } } }))).toEqual([]);
  });

  it("is rotated when SSH access is enabled explicitly or by default", () => {
    expect(ops(shootWith({ ...due, workersSettings: { sshAccess: { enabled: true } } }))).toEqual([OP_ROTATE_SSH]);
    expect(ops(shootWith({ ...due, workersSettings: {} }))).toEqual([OP_ROTATE_SSH]);
    expect(ops(shootWith({ ...due, workersSettings: { sshAccess: {} } }))).toEqual([OP_ROTATE_SSH]);
    expect(ops(shootWith({ ...due, workers: 3 }))).toEqual([OP_ROTATE_SSH]);
  });

  it("does not hold back the other rotations when SSH is off", () => {
    const s = shootWith({
      periods: { sshKeypair: "24h", observability: "24h", etcdEncryptionKey: "24h" },
      created: iso(NOW - 2 * DAY),
      workers: 0,
    });
    expect(ops(s)).toEqual([OP_ROTATE_OBSERVABILITY, OP_ROTATE_ETCD]);
  });
});

describe("ETCD encryption key: not while hibernated, and not while a rotation runs", () => {
  const due = { periods: { etcdEncryptionKey: "24h" }, created: iso(NOW - 2 * DAY) };

  it("is skipped for a hibernated shoot, and rotated once it wakes", () => {
    expect(ops(shootWith({ ...due, hibernated: true }))).toEqual([]);
    expect(ops(shootWith({ ...due, hibernated: false }))).toEqual([OP_ROTATE_ETCD]);
  });

  it("still rotates the SSH keypair and observability passwords of a hibernated shoot", () => {
    const s = shootWith({
      periods: { sshKeypair: "24h", observability: "24h", etcdEncryptionKey: "24h" },
      created: iso(NOW - 2 * DAY),
      hibernated: true,
    });
    expect(ops(s)).toEqual([OP_ROTATE_SSH, OP_ROTATE_OBSERVABILITY]);
  });

  it.each(["Preparing", "Prepared", "Completing"])("fails, without starting, while the rotation is %s", (phase) => {
    const s = shootWith({
      ...due,
      rotation: {
        etcdEncryptionKey: { phase, lastCompletionTime: iso(NOW - 2 * DAY), lastInitiationTime: iso(NOW - HOUR) },
      },
    });
    const results = credentialRotations(s, NOW);
    expect([...results.keys()]).toEqual([OP_ROTATE_ETCD]);
    expect(results.get(OP_ROTATE_ETCD)).toEqual({
      description: "Could not start ETCD encryption key rotation",
      reason: "ETCD encryption key rotation is already in progress",
      isSuccessful: false,
    });
  });

  it.each(["Completed", ""])("starts when the last rotation's phase is %j", (phase) => {
    const s = shootWith({ ...due, rotation: { etcdEncryptionKey: { phase, lastCompletionTime: iso(NOW - 2 * DAY) } } });
    expect(credentialRotations(s, NOW).get(OP_ROTATE_ETCD)?.isSuccessful).toBe(true);
  });

  it("reports nothing for a rotation in progress when the period has not passed yet", () => {
    const s = shootWith({
      ...due,
      rotation: { etcdEncryptionKey: { phase: "Prepared", lastCompletionTime: iso(NOW - HOUR) } },
    });
    expect(ops(s)).toEqual([]);
  });

  it("reports nothing for a hibernated shoot even while a rotation is in progress", () => {
    const s = shootWith({ ...due, hibernated: true, rotation: { etcdEncryptionKey: { phase: "Preparing" } } });
    expect(ops(s)).toEqual([]);
  });
});

describe("all three together", () => {
  it("are started in a fixed order: SSH keypair, observability, ETCD encryption key", () => {
    const s = shootWith({
      periods: { etcdEncryptionKey: "24h", observability: "24h", sshKeypair: "24h" },
      created: iso(NOW - 2 * DAY),
    });
    const results = credentialRotations(s, NOW);
    expect([...results.keys()]).toEqual([OP_ROTATE_SSH, OP_ROTATE_OBSERVABILITY, OP_ROTATE_ETCD]);
    expect([...results.values()].every((r) => r.isSuccessful)).toBe(true);
  });

  it("each follow their own period from the same creation", () => {
    const s = shootWith({
      periods: { sshKeypair: "12h", observability: "36h", etcdEncryptionKey: "24h" },
      created: iso(NOW - DAY),
    });
    // At exactly one day: only the 12h period has passed; 24h is exactly at its boundary.
    expect(ops(s)).toEqual([OP_ROTATE_SSH]);
    expect(ops(s, NOW + 1)).toEqual([OP_ROTATE_SSH, OP_ROTATE_ETCD]);
    expect(ops(s, NOW + 12 * HOUR + 1)).toEqual([OP_ROTATE_SSH, OP_ROTATE_OBSERVABILITY, OP_ROTATE_ETCD]);
  });

  it("does not change the shoot it looks at", () => {
    const s = shootWith({
      periods: { sshKeypair: "24h", observability: "24h", etcdEncryptionKey: "24h" },
      created: iso(NOW - 2 * DAY),
    });
    const before = structuredClone(s);
    credentialRotations(s, NOW);
    expect(s).toEqual(before);
  });
});
