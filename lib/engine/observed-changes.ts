// What a live garden did to a shoot, read off two successive states of it: the maintenance run
// Gardener recorded (a new status.lastMaintenance, with the versions it moved), other changes of
// the versions or the seed, and an operation that ended. Almanac's history and version timeline
// are built from these records, as on the simulated garden, where Almanac's own controllers
// write them. Pure: the mirror decides when to ask.
import type { Shoot } from "../gardener/types.ts";
import type { RecordedChange } from "./maintenance-record.ts";
import { ANNOTATION_OPERATION } from "./operation-annotations.ts";
import type { FieldChange } from "./shoot-patch.ts";

export interface ObservedRun {
  /** "maintain-now" when the shoot carried gardener.cloud/operation=maintain before the run. */
  readonly trigger: "window" | "maintain-now";
  readonly state: "Succeeded" | "Failed";
  readonly startedAt: number;
  readonly description: string;
  readonly failureReason?: string;
  readonly changes: readonly RecordedChange[];
}

export interface ObservedEvent {
  /** "shoot.observed" (the garden changed a field), "shoot.operation" (an operation ended). */
  readonly action: "shoot.observed" | "shoot.operation";
  readonly changes: readonly FieldChange[];
}

export interface Observed {
  readonly run?: ObservedRun;
  readonly events: readonly ObservedEvent[];
}

interface VersionField {
  readonly field: string;
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly value: string | undefined;
  /** The machine image's name: a change of image is said with names, a new version of it without. */
  readonly image?: string;
}

/** Every version a shoot asks for, by field: the control plane's, each pool's image and Kubernetes. */
function versionFields(shoot: Shoot): VersionField[] {
  const fields: VersionField[] = [
    {
      field: "spec.kubernetes.version",
      target: "controlPlane",
      kind: "kubernetes",
      value: shoot.spec.kubernetes.version,
    },
  ];
  for (const pool of shoot.spec.provider?.workers ?? []) {
    const image = pool.machine.image;
    fields.push({
      field: `spec.provider.workers[name=${pool.name}].machine.image.version`,
      target: pool.name,
      kind: "machineImage",
      value: image?.version,
      image: image?.name,
    });
    if (pool.kubernetes?.version !== undefined)
      fields.push({
        field: `spec.provider.workers[name=${pool.name}].kubernetes.version`,
        target: pool.name,
        kind: "kubernetes",
        value: pool.kubernetes.version,
      });
  }
  return fields;
}

const FINAL = new Set(["Succeeded", "Failed", "Error", "Aborted"]);

const operationText = (op: { type: string; state: string } | undefined) => (op ? `${op.type} ${op.state}` : null);

export function observeShootChange(before: Shoot, after: Shoot): Observed {
  const old = new Map(versionFields(before).map((f) => [f.field, f]));
  const moved = versionFields(after).flatMap((f) => {
    const was = old.get(f.field);
    if (!was || (was.value === f.value && was.image === f.image)) return [];
    if (was.image === f.image) return [{ ...f, from: was.value }];
    const named = (image: string | undefined, version: string | undefined) =>
      image === undefined ? version : `${image} ${version ?? ""}`.trim();
    return [{ ...f, from: named(was.image, was.value), value: named(f.image, f.value) }];
  });

  const lastBefore = before.status?.lastMaintenance;
  const lastAfter = after.status?.lastMaintenance;
  const newRun =
    lastAfter !== undefined &&
    (lastAfter.triggeredTime !== lastBefore?.triggeredTime || lastAfter.state !== lastBefore?.state);
  let run: ObservedRun | undefined;
  if (newRun && lastAfter) {
    const succeeded = lastAfter.state === "Succeeded";
    run = {
      trigger: before.metadata.annotations?.[ANNOTATION_OPERATION] === "maintain" ? "maintain-now" : "window",
      state: succeeded ? "Succeeded" : "Failed",
      startedAt: Date.parse(lastAfter.triggeredTime) || 0,
      description: lastAfter.description,
      ...(lastAfter.failureReason ? { failureReason: lastAfter.failureReason } : {}),
      // The versions that moved with it are the run's; Gardener words its reasons in the description.
      changes: moved.map((m) => ({
        target: m.target,
        kind: m.kind,
        ...(m.from !== undefined ? { from: m.from } : {}),
        ...(m.value !== undefined ? { to: m.value } : {}),
        reason: lastAfter.description,
        successful: succeeded,
        description: lastAfter.description,
      })),
    };
  }

  const fieldChanges: FieldChange[] = run
    ? []
    : moved.map((m) => ({ field: m.field, before: m.from ?? null, after: m.value ?? null }));
  const seedBefore = before.status?.seedName ?? before.spec.seedName;
  const seedAfter = after.status?.seedName ?? after.spec.seedName;
  if (seedBefore !== seedAfter)
    fieldChanges.push({ field: "status.seedName", before: seedBefore ?? null, after: seedAfter ?? null });

  const events: ObservedEvent[] = [];
  if (fieldChanges.length > 0) events.push({ action: "shoot.observed", changes: fieldChanges });
  const opBefore = before.status?.lastOperation;
  const opAfter = after.status?.lastOperation;
  const ended =
    opAfter !== undefined &&
    FINAL.has(opAfter.state) &&
    (opBefore === undefined || opBefore.type !== opAfter.type || opBefore.state !== opAfter.state);
  if (ended)
    events.push({
      action: "shoot.operation",
      changes: [{ field: "status.lastOperation", before: operationText(opBefore), after: operationText(opAfter) }],
    });
  return { ...(run ? { run } : {}), events };
}
