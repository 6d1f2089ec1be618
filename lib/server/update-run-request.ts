// What an update run asks, checked before anything is written (issue 29, item 2): its name, its
// target (a version some cloud profile offers), its stages (each selecting shoots the caller may
// read, by a fleet-list filter or a list, exactly as a bulk action selects them; no shoot in two
// stages), the soak times and the health gate within their bounds. Bad input is 422 naming the
// field (`stages[1].filter`, `target.kubernetes`, `healthGate.healthySeconds`). The answer is the
// run's selection as a snapshot: a run acts on the shoots selected when it was made.
import type { FieldProblem } from "../api/problem.ts";
import { Refusal, unprocessable } from "../api/refusal.ts";
import {
  healthGateSchema,
  MAX_RUN_NAME,
  MAX_RUN_SHOOTS,
  MAX_RUN_STAGES,
  type StageWhen,
  type UpdateRunRequest,
  updateRunStageSchema,
  type UpdateRunTarget,
  updateRunTargetSchema,
} from "../api/update-runs.ts";
import { zodProblems } from "../api/zod-problems.ts";
import type { Db } from "../db/client.ts";
import { kubernetesTargetForm, profilesOfferImage, profilesOfferKubernetes } from "../engine/update-run-target.ts";
import type { ShootKey } from "../garden/shoot-writes.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { existingShoots } from "../store/update-runs.ts";
import { selectedShoots } from "./bulk-action-request.ts";
import type { FleetScope } from "./fleet-scope.ts";

export interface ResolvedStage {
  readonly name: string;
  readonly when: StageWhen;
  readonly soakSeconds: number;
  readonly approval: boolean;
  /** The shoots it acts on, in the order it acts (name order for a filter, the list's for a list). */
  readonly shoots: readonly ShootKey[];
}

/** The run as checked: its selection is a snapshot of the moment it was made. */
export interface ResolvedUpdateRun {
  readonly name: string;
  readonly target: UpdateRunTarget;
  readonly healthGate: { readonly healthySeconds: number } | null;
  readonly stages: readonly ResolvedStage[];
}

const refuse = (detail: string, errors: readonly FieldProblem[]): never => {
  throw unprocessable(detail, errors);
};

/** A refusal of a stage's selection, its fields named inside the stage (`stages[2].filter.purpose`). */
function withinStage(error: unknown, index: number): never {
  if (error instanceof Refusal && error.code === "unprocessable")
    throw unprocessable(
      `stages[${index}]: ${error.message}`,
      error.errors.map((p) => ({ ...p, field: `stages[${index}].${p.field}` })),
    );
  throw error;
}

function nameOf(name: unknown): string {
  if (typeof name !== "string" || name.trim().length === 0 || name.length > MAX_RUN_NAME)
    refuse(`The run needs a name of 1 to ${MAX_RUN_NAME} characters.`, [
      {
        field: "name",
        type: name === undefined ? "Required" : typeof name === "string" ? "Invalid" : "TypeMismatch",
        detail: `1 to ${MAX_RUN_NAME} characters`,
      },
    ]);
  return (name as string).trim();
}

async function targetOf(db: Db, target: unknown, now: number): Promise<UpdateRunTarget> {
  if (target === undefined)
    refuse("The run needs a target.", [
      {
        field: "target",
        type: "Required",
        detail: '{"action": "maintain"}, {"kubernetes": ...} or {"machineImage": ...}',
      },
    ]);
  const parsed = updateRunTargetSchema.safeParse(target);
  if (!parsed.success)
    refuse(
      'The target must be {"action": "maintain"}, {"kubernetes": "1.33" | "1.33.4" | "latest-patch"} or {"machineImage": {"name", "version"}}.',
      [{ field: "target", type: "Invalid", detail: "not one of the targets a run takes" }],
    );
  const value = parsed.data!;
  const profiles = [...(await cachedCloudProfiles(db, now)).values()];
  if ("kubernetes" in value) {
    if (!kubernetesTargetForm(value.kubernetes))
      refuse(`"${value.kubernetes}" is not a Kubernetes version.`, [
        { field: "target.kubernetes", type: "Invalid", detail: 'like "1.33", "1.33.4" or "latest-patch"' },
      ]);
    if (!profilesOfferKubernetes(profiles, value.kubernetes, now))
      refuse(`No cloud profile offers Kubernetes ${value.kubernetes} (usable now).`, [
        { field: "target.kubernetes", type: "NotFound", detail: "no cloud profile offers this version" },
      ]);
  }
  if ("machineImage" in value && !profilesOfferImage(profiles, value.machineImage.name, value.machineImage.version))
    refuse(`No cloud profile offers ${value.machineImage.name} ${value.machineImage.version}.`, [
      { field: "target.machineImage.version", type: "NotFound", detail: "no cloud profile offers this image version" },
    ]);
  return value;
}

function healthGateOf(gate: unknown): ResolvedUpdateRun["healthGate"] {
  if (gate === undefined || gate === null) return null;
  const parsed = healthGateSchema.safeParse(gate);
  if (!parsed.success)
    refuse('The health gate must be {"healthySeconds": N} within its bounds.', zodProblems(parsed.error, "healthGate"));
  return parsed.data!;
}

/** The listed shoots that exist and the caller may read; another is a 422 naming it. */
async function checkListed(db: Db, keys: readonly ShootKey[], scope: FleetScope): Promise<void> {
  const found = await existingShoots(db, keys);
  const problems: FieldProblem[] = [];
  keys.forEach((key, j) => {
    const readable = scope.namespaces === "all" || scope.namespaces.includes(key.namespace);
    if (!readable || !found.has(`${key.namespace}/${key.name}`))
      problems.push({
        field: `shoots[${j}]`,
        type: "NotFound",
        detail: `no shoot ${key.namespace}/${key.name} (of those you may read)`,
      });
  });
  if (problems.length > 0) refuse("Some listed shoots do not exist (or you may not read them).", problems.slice(0, 50));
}

/** Checks the request and answers the run it asks for (the selection's snapshot); 422s name the field. */
export async function resolveUpdateRun(
  db: Db,
  body: Omit<UpdateRunRequest, "dryRun">,
  scope: FleetScope,
  now: number,
): Promise<ResolvedUpdateRun> {
  const name = nameOf(body.name);
  const target = await targetOf(db, body.target, now);
  const healthGate = healthGateOf(body.healthGate);
  const raw = body.stages;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_RUN_STAGES)
    refuse(`The run needs 1 to ${MAX_RUN_STAGES} stages.`, [
      {
        field: "stages",
        type: raw === undefined ? "Required" : Array.isArray(raw) && raw.length > 0 ? "TooMany" : "Invalid",
        detail: `1 to ${MAX_RUN_STAGES} stages`,
      },
    ]);
  const problems: FieldProblem[] = [];
  const parsed = (raw as unknown[]).map((stage, i) => {
    const result = updateRunStageSchema.safeParse(stage);
    if (!result.success) problems.push(...zodProblems(result.error, `stages[${i}]`));
    return result.data;
  });
  const names = new Map<string, number>();
  parsed.forEach((stage, i) => {
    if (!stage) return;
    const first = names.get(stage.name);
    if (first !== undefined)
      problems.push({ field: `stages[${i}].name`, type: "Duplicate", detail: `stages[${first}] has this name too` });
    else names.set(stage.name, i);
  });
  if (problems.length > 0) refuse("Some stages are not as a run takes them.", problems);
  const owner = new Map<string, number>();
  const stages: ResolvedStage[] = [];
  let total = 0;
  for (const [i, stage] of parsed.entries()) {
    const { name: stageName, when, soakSeconds, approval, filter, shoots: listed } = stage!;
    let shoots: ShootKey[];
    try {
      shoots = await selectedShoots(db, { filter, shoots: listed }, scope, now);
      if (listed !== undefined) await checkListed(db, shoots, scope);
    } catch (error) {
      withinStage(error, i);
    }
    for (const key of shoots!) {
      const id = `${key.namespace}/${key.name}`;
      const first = owner.get(id);
      if (first !== undefined)
        refuse(`${id} is in stages[${first}] and stages[${i}]; a shoot belongs to one stage.`, [
          {
            field: `stages[${i}].${listed !== undefined ? "shoots" : "filter"}`,
            type: "Duplicate",
            detail: `selects ${id}, which stages[${first}] selects too`,
          },
        ]);
      owner.set(id, i);
    }
    total += shoots!.length;
    if (total > MAX_RUN_SHOOTS)
      refuse(`The stages select more than ${MAX_RUN_SHOOTS} shoots; one run takes at most that many.`, [
        { field: "stages", type: "TooMany", detail: `select more than ${MAX_RUN_SHOOTS} shoots` },
      ]);
    stages.push({ name: stageName, when, soakSeconds: soakSeconds ?? 0, approval: approval ?? false, shoots: shoots! });
  }
  return { name, target, healthGate, stages };
}
