// POST /api/v1/update-runs with dryRun (issue 29, item 3): the whole run's forecast before it
// starts. What the run will do to each shoot is decided as the bulk preview decides it (the
// caller's role on the shoot's project, the shoot's state, the garden's rules, in the same words:
// bulk-action-preview.ts) for the change the target means there (lib/engine/update-run-target.ts);
// when and with what around it is the engine's plan (lib/engine/update-run-plan.ts). Read in a
// few statements however many shoots: the shoots at once by key, the profiles, the freezes, the
// admission rules once, each namespace's project and each seed once.
import type { ForcedBeforeRun, UpdateRunPreview, UpdateRunPreviewItem } from "../api/update-run-preview.ts";
import { notAllowed } from "../auth/access-refusal.ts";
import type { Principal } from "../auth/principal.ts";
import { projectOfNamespace } from "../auth/project-of-namespace.ts";
import { allows } from "../auth/roles.ts";
import { config } from "../config/load-config.ts";
import type { Db } from "../db/client.ts";
import type { GardenAdmissionRule } from "../engine/garden-admission.ts";
import type { ShootPatch } from "../engine/shoot-patch.ts";
import { formatTime } from "../engine/time-format.ts";
import {
  type ForcedBefore,
  type PlanCluster,
  type PlanDecision,
  type PlannedCluster,
  planUpdateRun,
} from "../engine/update-run-plan.ts";
import { targetChangeFor } from "../engine/update-run-target.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import type { CloudProfile, Seed } from "../gardener/types.ts";
import type { ShootKey, ShootRefusal } from "../garden/shoot-writes.ts";
import { listAdmissionRules } from "../store/admission-rules.ts";
import { profilesByKey } from "../store/cloud-profiles.ts";
import { listFreezes } from "../store/freezes.ts";
import { findSeed } from "../store/seeds.ts";
import { findShoots, type StoredShoot } from "../store/shoots.ts";
import { type PreviewFacts, previewFoundShoot } from "./bulk-action-preview.ts";
import { freezeMark, freezePeriod } from "./freeze-view.ts";
import { refusalError } from "./shoot-refusal.ts";
import type { ResolvedUpdateRun } from "./update-run-request.ts";

/** Who asks: the preview judges their role on each shoot's project, as the run will. */
export interface UpdateRunPreviewContext {
  readonly scope: { readonly principal: Principal };
}

/** Each value of `make` computed once per key (a promise, so concurrent asks share it). */
function once<T>(make: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const made = new Map<string, Promise<T>>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

interface Found {
  readonly key: ShootKey;
  readonly stored?: StoredShoot;
  readonly profile?: CloudProfile;
}

/** What the run will do to one shoot, in the bulk preview's words. */
async function decide(
  found: Found,
  run: ResolvedUpdateRun,
  roleRefused: string | undefined,
  facts: PreviewFacts,
  now: number,
): Promise<PlanDecision> {
  const { key, stored, profile } = found;
  if (roleRefused !== undefined) return { outcome: "refused", changes: [], message: roleRefused, byRole: true };
  const maintain = "action" in run.target;
  // As shootForChange answers (lib/garden/shoot-change-rules.ts), from the shoot read in the batch.
  const refusal: ShootRefusal | undefined =
    stored === undefined
      ? { code: "NotFound" }
      : stored.shoot.metadata.deletionTimestamp
        ? { code: "BeingDeleted" }
        : undefined;
  if (refusal !== undefined || stored === undefined) {
    const error = refusalError(refusal ?? { code: "NotFound" }, key, maintain ? "maintain" : "change");
    return { outcome: "refused", changes: [], message: error.message };
  }
  const shoot = stored.shoot;
  const change = targetChangeFor(shoot, profile, run.target, now);
  const asFound = { stored, shoot, profile };
  const judge = (bulk: { kind: "maintain" } | { kind: "patch"; patch: ShootPatch }) =>
    previewFoundShoot(key, asFound, bulk, now, facts).then(({ outcome, changes, message, errors }) => ({
      outcome,
      changes,
      message,
      ...(errors ? { errors } : {}),
    }));
  switch (change.kind) {
    case "maintain":
      return judge({ kind: "maintain" });
    case "patch":
      return judge({ kind: "patch", patch: change.patch });
    case "unchanged":
      return { outcome: "unchanged", changes: [], message: change.reason };
    case "refused": {
      // The garden's validation: worded as the PATCH (and the bulk preview) word it.
      if (change.errors && change.errors.length > 0) {
        const problems = change.errors.map((e) => ({ field: e.field, type: e.type, detail: e.detail }));
        const error = refusalError({ code: "Invalid", problems }, key, "change");
        return { outcome: "refused", changes: [], message: error.message, errors: problems };
      }
      return { outcome: "refused", changes: [], message: change.reason };
    }
  }
}

function forcedJson(forced: ForcedBefore): ForcedBeforeRun {
  const { at, freeze, ...rest } = forced;
  return { ...rest, at: formatTime(at), ...(freeze ? { freeze: freezeMark(freeze) } : {}) };
}

function itemJson(item: PlannedCluster): UpdateRunPreviewItem {
  return {
    namespace: item.namespace,
    name: item.name,
    outcome: item.outcome,
    changes: item.changes,
    message: item.message,
    ...(item.errors ? { errors: item.errors } : {}),
    plannedAt: formatTime(item.plannedAt),
    ...(item.forcedBefore ? { forcedBefore: forcedJson(item.forcedBefore) } : {}),
    ...(item.freeze ? { freeze: freezeMark(item.freeze) } : {}),
  };
}

/**
 * The run's preview at `now`: per stage and shoot the planned moment, the change or the refusal,
 * Gardener's forced update before it, the freeze; the expected ends; the warnings.
 */
export async function previewUpdateRun(
  db: Db,
  resolved: ResolvedUpdateRun,
  ctx: UpdateRunPreviewContext,
  now: number,
  actingSeconds: number = config().jobs.updateRunActingSeconds,
): Promise<UpdateRunPreview> {
  const keys = resolved.stages.flatMap((s) => s.shoots);
  const [shoots, profiles, freezes] = await Promise.all([
    findShoots(db, keys),
    profilesByKey(db),
    listFreezes(db, { from: new Date(now) }),
  ]);
  const projectOf = once(async (namespace) => projectOfNamespace(db, namespace));
  const roleRefusalIn = once(async (namespace) => {
    const project = await projectOf(namespace);
    const principal = ctx.scope.principal;
    return allows(principal.bindings, "operate", project)
      ? undefined
      : notAllowed(principal, "operate", project, namespace).message;
  });
  const rules = once(() => listAdmissionRules(db));
  const facts: PreviewFacts = {
    admissionRules: (): Promise<readonly GardenAdmissionRule[]> => rules(""),
    seedOf: once((name): Promise<Seed | undefined> => findSeed(db, name)),
  };
  const clusterOf = async (key: ShootKey): Promise<PlanCluster> => {
    const stored = shoots.get(`${key.namespace}/${key.name}`);
    const profile = stored ? profiles.get(profileKeyOf(stored.shoot)) : undefined;
    const [project, roleRefused] = await Promise.all([projectOf(key.namespace), roleRefusalIn(key.namespace)]);
    const decision = await decide({ key, stored, profile }, resolved, roleRefused, facts, now);
    return {
      ...key,
      ...(project !== undefined ? { project } : {}),
      ...(stored ? { shoot: stored.shoot } : {}),
      ...(profile ? { profile } : {}),
      decision,
    };
  };
  const stages = [];
  for (const stage of resolved.stages) {
    const clusters: PlanCluster[] = [];
    for (const key of stage.shoots) clusters.push(await clusterOf(key));
    stages.push({
      name: stage.name,
      when: stage.when,
      soakSeconds: stage.soakSeconds,
      approval: stage.approval,
      clusters,
    });
  }
  const plan = planUpdateRun({
    stages,
    healthGate: resolved.healthGate,
    actingSeconds,
    freezes: freezes.map(freezePeriod),
    now,
  });
  return {
    name: resolved.name,
    target: resolved.target,
    healthGate: resolved.healthGate,
    actingSeconds,
    expectedEnd: formatTime(plan.expectedEnd),
    afterApproval: plan.afterApproval,
    total: keys.length,
    counts: plan.counts,
    warnings: plan.warnings,
    stages: plan.stages.map((s) => ({
      name: s.name,
      when: s.when,
      soakSeconds: s.soakSeconds,
      approval: s.approval,
      afterApproval: s.afterApproval,
      earliestStart: formatTime(s.earliestStart),
      ...(s.heldByFreeze ? { freeze: freezeMark(s.heldByFreeze) } : {}),
      expectedEnd: formatTime(s.expectedEnd),
      message: s.message,
      counts: s.counts,
      items: s.items.map(itemJson),
    })),
  };
}
