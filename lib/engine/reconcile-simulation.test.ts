// The simulated gardenlet reconcile: lastOperation, lastErrors, conditions and the status label
// as a Reconcile runs, succeeds or hits a fault (Gardener: docs/usage/shoot/shoot_status.md;
// pkg/gardenlet/controller/shoot/shoot/reconciler.go for the status, reconciler_reconcile.go's
// removeTaskAnnotation for the tasks, pkg/api/core/v1beta1/helper/errors.go for Error or Failed,
// and pkg/utils/gardener/shoot_status.go for the label).
import { describe, expect, it } from "vitest";
import type { Condition, Shoot } from "../gardener/types.ts";
import { hasNonRetryableErrorCode } from "./last-errors.ts";
import { ANNOTATION_OPERATION, ANNOTATION_TASKS } from "./operation-annotations.ts";
import { specFingerprint } from "./rollout-pending.ts";
import {
  ANNOTATION_RECONCILE_ID,
  nextReconcileAttempt,
  NON_RETRYABLE_CODES,
  RECONCILE_STEPS,
  advanceNodeRoll,
  advanceReconcile,
  applyConditionThresholds,
  applyNodeCheck,
  failNodeRoll,
  removeTasksOfStep,
  beginReconcile,
  drawFault,
  type Fault,
} from "./reconcile-simulation.ts";
import { shootStatusLabel } from "./status-label.ts";

const CONDITION_TYPES = [
  "APIServerAvailable",
  "ControlPlaneHealthy",
  "ObservabilityComponentsHealthy",
  "EveryNodeReady",
  "SystemComponentsHealthy",
];
const EARLIER = "2024-05-01T08:00:00Z";
// Whole seconds: status times are written with second precision.
const T0 = Date.parse("2024-05-02T10:00:00Z");
const MINUTE = 60_000;
const STEP_MS = MINUTE;
const LAST_STEP = RECONCILE_STEPS.length; // advancing to this step completes the reconcile

function healthyShoot(options: { withOldErrors?: boolean } = {}): Shoot {
  const shoot: Shoot = {
    apiVersion: "core.gardener.cloud/v1beta1",
    kind: "Shoot",
    metadata: {
      name: "my-shoot",
      namespace: "garden-dev",
      uid: "0b6c4a8e-1f1e-4c1b-9d44-3f0e6a1a2b3c",
      generation: 7,
      annotations: {
        [ANNOTATION_OPERATION]: "maintain",
        [ANNOTATION_TASKS]: "deployInfrastructure,deployDNSRecordInternal,deployDNSRecordIngress",
        "example.com/keep": "me",
      },
    },
    spec: { cloudProfileName: "test-profile", kubernetes: { version: "1.30.4" } },
    status: {
      observedGeneration: 6,
      conditions: CONDITION_TYPES.map((type) => ({
        type,
        status: "True",
        reason: "Healthy",
        message: "ok",
        lastTransitionTime: EARLIER,
        lastUpdateTime: EARLIER,
      })),
      lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: EARLIER },
      lastMaintenance: {
        description: "All maintenance operations successful.",
        triggeredTime: EARLIER,
        state: "Processing",
      },
    },
  };
  if (options.withOldErrors) {
    shoot.status!.lastErrors = [
      { description: "an earlier attempt failed", codes: ["ERR_INFRA_RATE_LIMITS_EXCEEDED"] },
    ];
  }
  return shoot;
}

const condition = (shoot: Shoot, type: string): Condition => {
  const c = shoot.status?.conditions?.find((x) => x.type === type);
  if (!c) throw new Error(`no condition ${type}`);
  return c;
};

/** Begins at T0 and advances one step per minute, stopping after the fault strikes. */
function run(shoot: Shoot, fault?: Fault, until = LAST_STEP): Shoot[] {
  let s = beginReconcile(shoot, "rec-1", T0);
  const states = [s];
  for (let step = 1; step <= until; step++) {
    s = advanceReconcile(s, step, T0 + step * STEP_MS, fault);
    states.push(s);
    if (fault?.step === step) break;
  }
  return states;
}

/** The first fault drawn (rate 1, varying uid) that satisfies `wanted`: the real fault table, not a made-up one. */
function findFault(wanted: (f: Fault) => boolean): Fault {
  for (let i = 0; i < 100_000; i++) {
    const f = drawFault(42, `uid-${i}`, 1, 0, 1);
    if (f && wanted(f)) return f;
  }
  throw new Error("no such fault drawn");
}

describe("beginReconcile", () => {
  const begun = beginReconcile(healthyShoot(), "rec-1", T0);

  it("sets lastOperation Reconcile / Processing / 0", () => {
    expect(begun.status?.lastOperation).toEqual({
      type: "Reconcile",
      state: "Processing",
      progress: 0,
      description: "Reconciliation of Shoot cluster initialized.",
      lastUpdateTime: "2024-05-02T10:00:00Z",
    });
  });

  it("records the reconcile id, attempt and spec it rolls out, and leaves the operation and tasks annotations", () => {
    // gardener-apiserver consumed reconcile and retry already (shoot-strategy.ts); the tasks go one
    // by one as their steps finish; a pending maintain is maintenance's to consume.
    expect(begun.metadata.annotations).toEqual({
      ...healthyShoot().metadata.annotations,
      [ANNOTATION_RECONCILE_ID]: "rec-1",
      "almanac.gardener.cloud/reconcile-attempt": `${begun.metadata.generation ?? 0}/1`,
      "almanac.gardener.cloud/reconciled-spec": specFingerprint(healthyShoot().spec),
    });
  });

  it("sets observedGeneration when the operation starts (Gardener: updateShootStatusOperationStart)", () => {
    expect(healthyShoot().status?.observedGeneration).toBe(6);
    expect(begun.status?.observedGeneration).toBe(7);
    expect(begun.status?.retryCycleStartTime).toBe("2024-05-02T10:00:00Z");
  });

  it("counts attempts per generation: a retry is the next attempt, a new generation starts at 1", () => {
    expect(nextReconcileAttempt(healthyShoot())).toBe(1);
    expect(nextReconcileAttempt(begun)).toBe(2);
    const again = beginReconcile(begun, "rec-2", T0, nextReconcileAttempt(begun));
    expect(nextReconcileAttempt(again)).toBe(3);
    const newer = { ...again, metadata: { ...again.metadata, generation: (again.metadata.generation ?? 0) + 1 } };
    expect(nextReconcileAttempt(newer)).toBe(1);
  });

  it("does not modify its input", () => {
    const input = healthyShoot();
    beginReconcile(input, "rec-1", T0);
    expect(input).toEqual(healthyShoot());
  });
});

describe("a reconcile without fault", () => {
  const states = run(healthyShoot());
  const done = states.at(-1)!;

  it("raises progress monotonically from 0 to 100", () => {
    const progress = states.map((s) => s.status?.lastOperation?.progress ?? -1);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
    expect(states.slice(0, -1).every((s) => s.status?.lastOperation?.state === "Processing")).toBe(true);
  });

  it("ends Succeeded at 100 % with the generation observed", () => {
    expect(done.status?.lastOperation).toMatchObject({ type: "Reconcile", state: "Succeeded", progress: 100 });
    expect(done.status?.observedGeneration).toBe(7);
  });

  it("keeps lastErrors of an earlier attempt while processing and removes them on success", () => {
    const withErrors = run(healthyShoot({ withOldErrors: true }));
    expect(withErrors[2].status?.lastErrors).toHaveLength(1);
    expect(withErrors.at(-1)!.status).not.toHaveProperty("lastErrors");
  });

  it("ends hibernated exactly when the spec asks for it (Gardener: patchShootStatusOperationSuccess)", () => {
    expect(done.status?.hibernated).toBe(false);
    const sleepy = healthyShoot();
    sleepy.spec = { ...sleepy.spec, hibernation: { enabled: true } };
    expect(run(sleepy).at(-1)!.status?.hibernated).toBe(true);
    const waking = { ...sleepy, spec: { ...sleepy.spec, hibernation: { enabled: false } } };
    waking.status = { ...waking.status, hibernated: true };
    expect(run(waking).at(-2)!.status?.hibernated).toBe(true);
    expect(run(waking).at(-1)!.status?.hibernated).toBe(false);
  });

  it("ends with every condition True", () => {
    expect(done.status?.conditions?.map((c) => [c.type, c.status])).toEqual(CONDITION_TYPES.map((t) => [t, "True"]));
  });

  it("turns a Processing lastMaintenance into Succeeded", () => {
    expect(states[0].status?.lastMaintenance?.state).toBe("Processing");
    expect(done.status?.lastMaintenance).toEqual({ ...healthyShoot().status?.lastMaintenance, state: "Succeeded" });
  });

  it("passes EveryNodeReady and SystemComponentsHealthy through Progressing during the rollout", () => {
    const seen = (type: string) => states.map((s) => condition(s, type).status);
    for (const type of ["EveryNodeReady", "SystemComponentsHealthy"]) {
      expect(seen(type)).toContain("Progressing");
      expect(condition(states[3], type).status).toBe("Progressing");
      expect(seen(type).at(-1)).toBe("True");
    }
    // The control plane checks stay True throughout.
    for (const type of ["APIServerAvailable", "ControlPlaneHealthy"])
      expect(new Set(seen(type))).toEqual(new Set(["True"]));
  });

  it("updates lastTransitionTime only when a condition's status changes", () => {
    expect(condition(states[3], "EveryNodeReady").lastTransitionTime).toBe("2024-05-02T10:03:00Z");
    expect(condition(states[4], "EveryNodeReady").lastTransitionTime).toBe("2024-05-02T10:03:00Z");
    expect(condition(done, "EveryNodeReady").lastTransitionTime).toBe("2024-05-02T10:05:00Z");
    expect(condition(done, "APIServerAvailable").lastTransitionTime).toBe(EARLIER);
  });

  it("labels the shoot progressing while nodes roll, healthy once done", () => {
    const labels = states.map((s) => shootStatusLabel(s));
    // A Processing operation without lastErrors and with all checks True is healthy (Gardener's
    // ComputeShootStatus).
    expect(labels).toEqual(["healthy", "healthy", "healthy", "progressing", "progressing", "healthy"]);
  });
});

describe("the fault table", () => {
  it("classifies codes as Gardener's HasNonRetryableErrorCode does (rate limits are not retried)", () => {
    expect(NON_RETRYABLE_CODES).toEqual(
      new Set([
        "ERR_INFRA_RATE_LIMITS_EXCEEDED",
        "ERR_INFRA_QUOTA_EXCEEDED",
        "ERR_CONFIGURATION_PROBLEM",
        "ERR_INFRA_UNAUTHORIZED",
      ]),
    );
    for (let i = 0; i < 500; i++) {
      const f = drawFault(1, `uid-${i}`, 1, 0, 1)!;
      expect(f.retryable).toBe(!hasNonRetryableErrorCode({ codes: [f.code] }));
      expect(f.step).toBeGreaterThanOrEqual(1);
      expect(f.step).toBeLessThan(LAST_STEP);
    }
  });
});

describe("a reconcile hit by a fault (Gardener: patchShootStatusOperationError)", () => {
  const retryable = ["ERR_RETRYABLE_INFRA_DEPENDENCIES", "ERR_INFRA_RESOURCES_DEPLETED"];
  const nonRetryable = [
    "ERR_INFRA_RATE_LIMITS_EXCEEDED",
    "ERR_INFRA_QUOTA_EXCEEDED",
    "ERR_CONFIGURATION_PROBLEM",
    "ERR_INFRA_UNAUTHORIZED",
  ];

  it.each([...retryable.map((code) => [code, "Error"]), ...nonRetryable.map((code) => [code, "Failed"])])(
    "%s ends the operation in %s with the code in lastErrors",
    (code, state) => {
      const fault = findFault((f) => f.code === code);
      const states = run(healthyShoot(), fault);
      const failed = states.at(-1)!;
      expect(states).toHaveLength(fault.step + 1);
      expect(failed.status?.lastOperation).toMatchObject({
        type: "Reconcile",
        state,
        progress: RECONCILE_STEPS[fault.step - 1].progress,
      });
      const description = failed.status?.lastOperation?.description ?? "";
      expect(description).toContain(fault.message);
      expect(description.startsWith('Flow "Shoot cluster reconciliation" encountered task errors: [task "')).toBe(true);
      // Only an Error says it will be retried.
      expect(description.endsWith("] Operation will be retried.")).toBe(state === "Error");
      expect(failed.status?.lastErrors).toEqual([
        expect.objectContaining({
          taskID: fault.taskID,
          codes: [code],
          description: `task "${fault.taskID}" failed: ${fault.message}`,
        }),
      ]);
      // Observed when it started, whatever the outcome.
      expect(failed.status?.observedGeneration).toBe(7);
      expect(failed.status?.retryCycleStartTime === undefined).toBe(state === "Failed");
    },
  );

  it("turns an Error into Failed once the retry duration has passed since the retry cycle began", () => {
    const fault = findFault((f) => f.retryable && f.step === 2);
    const HOUR = 60 * MINUTE;
    const first = run(healthyShoot(), fault).at(-1)!;
    expect(first.status?.lastOperation?.state).toBe("Error");
    // The gardenlet's next attempts at the same generation keep the retry cycle that began at T0.
    let s = beginReconcile(first, "rec-2", T0 + 11 * HOUR, 2);
    s = advanceReconcile(s, 1, T0 + 11 * HOUR + MINUTE, fault);
    s = advanceReconcile(s, 2, T0 + 11 * HOUR + 2 * MINUTE, fault);
    expect(s.status?.lastOperation?.state).toBe("Error");
    s = beginReconcile(s, "rec-3", T0 + 12 * HOUR, 3);
    s = advanceReconcile(s, 1, T0 + 12 * HOUR + MINUTE, fault);
    s = advanceReconcile(s, 2, T0 + 12 * HOUR + 2 * MINUTE, fault);
    expect(s.status?.lastOperation?.state).toBe("Failed");
    expect(s.status?.lastOperation?.description?.endsWith("Operation will be retried.")).toBe(false);
    // A shorter configured retry duration ends it sooner.
    const short = advanceReconcile(beginReconcile(healthyShoot(), "r", T0), 2, T0 + 10 * MINUTE, fault, 7, 5 * MINUTE);
    expect(short.status?.lastOperation?.state).toBe("Failed");
  });

  it("shows the failing check as Progressing, not False, right after the fault", () => {
    const fault = findFault((f) => f.code === "ERR_INFRA_QUOTA_EXCEEDED");
    const failed = run(healthyShoot(), fault).at(-1)!;
    expect(condition(failed, fault.condition)).toMatchObject({
      status: "Progressing",
      reason: "HealthCheckFailing",
      message: fault.message,
      codes: ["ERR_INFRA_QUOTA_EXCEEDED"],
    });
  });

  it("labels the shoot unhealthy after a Failed fault", () => {
    const fault = findFault((f) => !f.retryable);
    const failed = run(healthyShoot(), fault).at(-1)!;
    expect(failed.status?.lastOperation?.state).toBe("Failed");
    expect(shootStatusLabel(failed)).toBe("unhealthy");
  });

  it("labels the shoot unhealthy after an Error, and still while the retry runs with lastErrors set", () => {
    const fault = findFault((f) => f.retryable);
    const errored = run(healthyShoot(), fault).at(-1)!;
    expect(shootStatusLabel(errored)).toBe("unhealthy");
    expect(shootStatusLabel(beginReconcile(errored, "rec-2", T0 + 10 * MINUTE))).toBe("unhealthy");
  });

  it("is cleared by a later successful reconcile", () => {
    const fault = findFault((f) => f.retryable);
    const errored = run(healthyShoot(), fault).at(-1)!;
    const retried = run(errored).at(-1)!;
    expect(retried.status?.lastOperation?.state).toBe("Succeeded");
    expect(retried.status).not.toHaveProperty("lastErrors");
    expect(retried.status).not.toHaveProperty("retryCycleStartTime");
    expect(condition(retried, fault.condition)).not.toHaveProperty("codes");
    expect(shootStatusLabel(retried)).toBe("healthy");
  });
});

describe("the tasks annotation (Gardener: reconciler_reconcile.go, removeTaskAnnotation)", () => {
  const all =
    "deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress,restartControlPlanePods,restartCoreAddons";
  const withTasks = (hibernated = false): Shoot => {
    const s = healthyShoot();
    s.metadata.annotations = { [ANNOTATION_TASKS]: all };
    if (hibernated) s.spec.hibernation = { enabled: true };
    return s;
  };
  const tasks = (s: Shoot) => s.metadata.annotations?.[ANNOTATION_TASKS];

  it("loses each task once the step that does it has finished, and the annotation at the end", () => {
    const states = run(withTasks());
    expect(states.map(tasks)).toEqual([
      all,
      all, // step 1 under way
      "deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress,restartControlPlanePods,restartCoreAddons",
      "deployDNSRecordIngress,restartCoreAddons",
      "deployDNSRecordIngress",
      undefined,
    ]);
  });

  it("keeps the tasks when the shoot's generation moved on while the reconcile ran", () => {
    const begun = beginReconcile(withTasks(), "rec-1", T0);
    const changed = { ...begun, metadata: { ...begun.metadata, generation: 8 } };
    expect(tasks(advanceReconcile(changed, 2, T0 + MINUTE, undefined, 7))).toBe(all);
    expect(tasks(removeTasksOfStep(changed, 1, 8))).not.toContain("deployInfrastructure");
  });

  it("keeps the DNS and core addon tasks of a hibernated shoot, whose reconcile skips that work", () => {
    expect(tasks(run(withTasks(true)).at(-1)!)).toBe(
      "deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress,restartCoreAddons",
    );
  });

  it("keeps the tasks of steps a fault cut short", () => {
    const fault = findFault((f) => f.step === 2);
    expect(tasks(run(withTasks(), fault).at(-1)!)).toBe(
      "deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress,restartControlPlanePods,restartCoreAddons",
    );
  });
});

describe("applyConditionThresholds", () => {
  const THRESHOLD = 5 * MINUTE;
  const fault = findFault((f) => f.code === "ERR_CONFIGURATION_PROBLEM");
  const failed = run(healthyShoot(), fault).at(-1)!;
  const faultAt = Date.parse(condition(failed, fault.condition).lastTransitionTime!);

  it("leaves the failing check Progressing up to and including the threshold", () => {
    expect(applyConditionThresholds(failed, faultAt + THRESHOLD - 1000, THRESHOLD)).toBe(failed);
    expect(applyConditionThresholds(failed, faultAt + THRESHOLD, THRESHOLD)).toBe(failed);
  });

  it("turns it False once the threshold has passed since its lastTransitionTime", () => {
    // As Gardener's FailedCondition: False only once more than the threshold has passed.
    for (const now of [faultAt + THRESHOLD + 1000, faultAt + THRESHOLD + 30 * MINUTE]) {
      const after = applyConditionThresholds(failed, now, THRESHOLD);
      expect(condition(after, fault.condition)).toMatchObject({
        status: "False",
        reason: "HealthCheckFailing",
        codes: ["ERR_CONFIGURATION_PROBLEM"],
        lastTransitionTime: new Date(now).toISOString().replace(".000Z", "Z"),
      });
      expect(shootStatusLabel(after)).toBe("unhealthy");
      expect(after.status?.lastOperation).toEqual(failed.status?.lastOperation);
    }
  });

  it("touches only checks failing with the fault, not those Progressing for a rollout", () => {
    const late = findFault((f) => f.step === 4 && f.condition === "ControlPlaneHealthy");
    const hit = run(healthyShoot(), late).at(-1)!;
    expect(condition(hit, "EveryNodeReady").status).toBe("Progressing");
    const after = applyConditionThresholds(hit, T0 + 2 * 60 * MINUTE, THRESHOLD);
    expect(condition(after, "ControlPlaneHealthy").status).toBe("False");
    expect(condition(after, "EveryNodeReady")).toEqual(condition(hit, "EveryNodeReady"));
    expect(condition(after, "SystemComponentsHealthy")).toEqual(condition(hit, "SystemComponentsHealthy"));
  });

  it("leaves shoots alone whose operation is neither Error nor Failed", () => {
    const later = faultAt + 60 * MINUTE;
    const retrying = beginReconcile(failed, "rec-2", later);
    expect(condition(retrying, fault.condition).status).toBe("Progressing");
    expect(applyConditionThresholds(retrying, later + 60 * MINUTE, THRESHOLD)).toBe(retrying);
    const healthy = run(healthyShoot()).at(-1)!;
    expect(applyConditionThresholds(healthy, later, THRESHOLD)).toBe(healthy);
  });
});

describe("drawFault", () => {
  it("is deterministic for the same inputs", () => {
    for (let i = 0; i < 50; i++) {
      expect(drawFault(7, `uid-${i}`, 3, 1, 0.5)).toEqual(drawFault(7, `uid-${i}`, 3, 1, 0.5));
    }
  });

  it("never draws a fault at rate 0 and always one at rate 1", () => {
    for (let i = 0; i < 500; i++) {
      expect(drawFault(7, `uid-${i}`, 1, 0, 0)).toBeUndefined();
      expect(drawFault(7, `uid-${i}`, 1, 0, 1)).toBeDefined();
    }
  });

  it("draws roughly `rate` of the time, with retryable and non-retryable codes", () => {
    const draws = Array.from({ length: 2000 }, (_, i) => drawFault(11, `shoot-${i}`, 2, 0, 0.2));
    const faults = draws.filter((f): f is Fault => f !== undefined);
    expect(faults.length / draws.length).toBeGreaterThan(0.12);
    expect(faults.length / draws.length).toBeLessThan(0.28);
    expect(faults.some((f) => f.retryable)).toBe(true);
    expect(faults.some((f) => !f.retryable)).toBe(true);
  });
});

describe("step 3 while worker nodes roll", () => {
  const atStep3 = () => run(healthyShoot(), undefined, 3).at(-1)!;

  it("moves the progress between 70 and 90 with the nodes updated; EveryNodeReady Progressing with the message", () => {
    const message = 'Worker pool "worker" is being rolled (1/3 nodes updated).';
    const progress = [0, 1 / 3, 2 / 3, 1].map((share) => {
      const s = advanceNodeRoll(atStep3(), T0 + 10 * MINUTE, share, message);
      expect(s.status?.lastOperation).toMatchObject({
        state: "Processing",
        description: "Reconciling shoot worker nodes",
      });
      expect(condition(s, "EveryNodeReady")).toMatchObject({
        status: "Progressing",
        reason: "NodesRollingUpdate",
        message,
      });
      return s.status!.lastOperation!.progress!;
    });
    expect(progress).toEqual([70, 76, 83, 89]);
  });

  it("ends a held roll in Error with a task error naming what holds it, retried by the gardenlet", () => {
    const message =
      'node "n-1" of worker pool "worker" keeps the taint ...: Pod kube-system/calico-node-x: CrashLoopBackOff';
    const s = failNodeRoll(atStep3(), T0 + 10 * MINUTE, message);
    expect(s.status?.lastOperation).toMatchObject({ state: "Error", type: "Reconcile" });
    expect(s.status?.lastErrors).toEqual([
      expect.objectContaining({
        taskID: "Reconciling shoot worker nodes",
        description: `task "Reconciling shoot worker nodes" failed: ${message}`,
      }),
    ]);
    expect(s.status?.lastErrors?.[0].codes).toBeUndefined();
    expect(condition(s, "EveryNodeReady")).toMatchObject({
      status: "Progressing",
      reason: "HealthCheckFailing",
      message,
    });
  });
});

describe("applyNodeCheck", () => {
  it("sets EveryNodeReady as the nodes have it; a failing check shows Progressing first", () => {
    const done = run(healthyShoot()).at(-1)!;
    const ok = applyNodeCheck(done, { status: "True", reason: "EveryNodeReady", message: "All nodes are ready." }, T0);
    expect(condition(ok, "EveryNodeReady")).toMatchObject({ status: "True", message: "All nodes are ready." });
    const missing =
      'Not enough worker nodes registered in worker pool "worker" to meet minimum desired machine count. (1/3).';
    const failing = applyNodeCheck(done, { status: "False", reason: "MissingNodes", message: missing }, T0);
    expect(condition(failing, "EveryNodeReady")).toMatchObject({
      status: "Progressing",
      reason: "HealthCheckFailing",
      message: missing,
    });
  });
});
