// What a bulk action will do to one shoot, decided as the single-shoot endpoints decide it (the
// same rules, lib/garden/shoot-change-rules.ts, and the same words, shoot-refusal.ts), without
// writing: the caller's role on the shoot's project, the shoot's state (unknown, being deleted,
// an operation under way or pending), the garden's validation of the change, and what it changes.
import type { BulkPreviewItem, FieldChange } from "../api/bulk-actions.ts";
import { notAllowed } from "../auth/access-refusal.ts";
import type { Principal } from "../auth/principal.ts";
import { projectOfNamespace } from "../auth/project-of-namespace.ts";
import { allows } from "../auth/roles.ts";
import type { Db, Queryable } from "../db/client.ts";
import {
  admissionDryRun,
  admissionRejection,
  type GardenAdmissionRule,
  judgedByAdmission,
} from "../engine/garden-admission.ts";
import type { RecordedChange } from "../engine/maintenance-record.ts";
import type { Seed } from "../gardener/types.ts";
import {
  judgeMaintainNow,
  judgePatch,
  maintenancePlan,
  seedsOf,
  shootForChange,
  type ShootForChange,
} from "../garden/shoot-change-rules.ts";
import type { ShootKey, ShootRefusal } from "../garden/shoot-writes.ts";
import { listAdmissionRules } from "../store/admission-rules.ts";
import { shootsOwnedByActiveRuns } from "../store/update-runs.ts";
import type { BulkChange } from "./bulk-action-request.ts";
import { refusalError } from "./shoot-refusal.ts";

/** A maintenance run's version change as a field change (the preview's and the item's record). */
export const recordedAsField = (c: RecordedChange): FieldChange => ({
  field: c.target === "controlPlane" ? `spec.kubernetes.version` : `spec.provider.workers[${c.target}].${c.kind}`,
  before: c.from ?? null,
  after: c.to ?? null,
});

/** The refusal of the caller's role on the shoot's project, in authorize()'s words; undefined when allowed. */
export async function roleRefusal(db: Db, principal: Principal, key: ShootKey): Promise<string | undefined> {
  const project = await projectOfNamespace(db, key.namespace);
  return allows(principal.bindings, "operate", project)
    ? undefined
    : notAllowed(principal, "operate", project, key.namespace).message;
}

/**
 * The shoots of `keys` that an update run still under way owns, by "namespace/name", each with the
 * refusal that names the run: a cluster is moved by one run at a time, and a bulk action acting
 * beside a run would race its stages and its health gate.
 */
export async function runRefusals(db: Queryable, keys: readonly ShootKey[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let open = keys;
  // shootsOwnedByActiveRuns answers at most a few rows at a time (it names, it does not count):
  // ask again without the shoots found until an answer is short of a full one.
  for (;;) {
    const owned = await shootsOwnedByActiveRuns(db, open);
    for (const o of owned)
      out.set(
        `${o.namespace}/${o.name}`,
        `${o.namespace}/${o.name} belongs to update run "${o.runName}" (${o.runId}), which is still under way; a cluster is moved by one run at a time. Wait for the run to end, or cancel it.`,
      );
    if (owned.length < OWNED_PAGE) return out;
    open = open.filter((k) => !out.has(`${k.namespace}/${k.name}`));
  }
}

/** How many rows shootsOwnedByActiveRuns answers at most. */
const OWNED_PAGE = 20;

function refused(key: ShootKey, refusal: ShootRefusal, change: BulkChange): BulkPreviewItem {
  const error = refusalError(refusal, key, change.kind === "maintain" ? "maintain" : "change");
  return {
    ...key,
    outcome: "refused",
    changes: [],
    message: error.message,
    ...(error.errors.length > 0
      ? { errors: error.errors.map(({ field, type, detail }) => ({ field, type, detail })) }
      : {}),
  };
}

/** One shoot's preview; `roleRefused` when the caller's role (or an update run owning it) already refuses it. */
export async function previewShoot(
  db: Db,
  key: ShootKey,
  change: BulkChange,
  now: number,
  roleRefused?: string,
): Promise<BulkPreviewItem> {
  if (roleRefused !== undefined) return { ...key, outcome: "refused", changes: [], message: roleRefused };
  const found = await shootForChange(db, key);
  return previewFoundShoot(key, found, change, now, {
    admissionRules: () => listAdmissionRules(db),
    seedOf: seedsOf(db),
  });
}

/** What a preview reads besides the shoot and its profile; a preview of many shoots reads each once. */
export interface PreviewFacts {
  /** The simulated garden's webhooks (lib/engine/garden-admission.ts). */
  readonly admissionRules: () => Promise<readonly GardenAdmissionRule[]>;
  readonly seedOf: (name: string) => Promise<Seed | undefined>;
}

/**
 * One shoot's preview from the shoot as found (shootForChange's answer, or its equal read in a
 * batch: lib/server/update-run-preview.ts), with the same rules and words as previewShoot.
 */
export async function previewFoundShoot(
  key: ShootKey,
  found: ShootForChange | { readonly refusal: ShootRefusal },
  change: BulkChange,
  now: number,
  facts: PreviewFacts,
): Promise<BulkPreviewItem> {
  if (found.refusal) return refused(key, found.refusal, change);
  const { shoot, profile } = found;
  if (change.kind === "maintain") {
    const judged = judgeMaintainNow(shoot);
    if (judged.refusal) return refused(key, judged.refusal, change);
    const plan = maintenancePlan(
      shoot,
      profile,
      now,
      profile ? admissionDryRun(await facts.admissionRules()) : undefined,
    );
    const summary =
      plan.missingProfile !== undefined
        ? `The cloud profile "${plan.missingProfile}" is missing, so the run will fail.`
        : plan.failureReason !== undefined
          ? `The garden will reject the run's update, so it will fail: ${plan.failureReason}`
          : plan.changes.length === 0
            ? "Maintenance will change no versions."
            : plan.changes.map((c) => c.description).join(" ");
    return judged.queued
      ? { ...key, outcome: "act", changes: plan.changes.map(recordedAsField), message: `Maintain now: ${summary}` }
      : {
          ...key,
          outcome: "unchanged",
          changes: [],
          message: `Maintenance of ${key.namespace}/${key.name} is already queued; nothing more will be queued.`,
        };
  }
  // Waking a shoot that is awake (or hibernating a hibernated one) writes nothing: the spec would
  // only gain `hibernation.enabled: false`, and a reconcile for it.
  const hibernation = change.patch.spec?.hibernation;
  if (hibernation && (shoot.spec.hibernation?.enabled ?? false) === hibernation.enabled)
    return { ...key, outcome: "unchanged", changes: [], message: "Nothing to change." };
  const judged = await judgePatch(shoot, change.patch, profile, facts.seedOf, now);
  if (judged.refusal) return refused(key, judged.refusal, change);
  if (judged.changes.length === 0) return { ...key, outcome: "unchanged", changes: [], message: "Nothing to change." };
  // The simulated garden's webhooks (a live garden has none here: its own answer at run time).
  if (judgedByAdmission(shoot, judged.requested)) {
    const rejection = admissionRejection(judged.after, await facts.admissionRules());
    if (rejection) return refused(key, { code: "AdmissionRejected", ...rejection }, change);
  }
  return { ...key, outcome: "act", changes: judged.changes, message: describeChanges(judged.changes) };
}

const show = (v: unknown) => (v === undefined || v === null ? "(none)" : JSON.stringify(v));

export const describeChanges = (changes: readonly FieldChange[]) =>
  changes.map((c) => `${c.field}: ${show(c.before)} -> ${show(c.after)}`).join("; ");

/** Why the action may not act on each shoot (its caller's role, then an update run owning it), or undefined. */
export async function startRefusals(
  db: Db,
  keys: readonly ShootKey[],
  principal: Principal,
): Promise<(string | undefined)[]> {
  const [roles, runs] = await Promise.all([
    Promise.all(keys.map((key) => roleRefusal(db, principal, key))),
    runRefusals(db, keys),
  ]);
  return keys.map((key, i) => roles[i] ?? runs.get(`${key.namespace}/${key.name}`));
}

/** Each shoot's preview, a few at a time, in the order given. */
export async function previewShoots(
  db: Db,
  keys: readonly ShootKey[],
  change: BulkChange,
  principal: Principal,
  now: number,
): Promise<BulkPreviewItem[]> {
  const refusals = await startRefusals(db, keys, principal);
  const out: BulkPreviewItem[] = new Array(keys.length);
  const AT_ONCE = 8;
  for (let i = 0; i < keys.length; i += AT_ONCE) {
    await Promise.all(
      keys.slice(i, i + AT_ONCE).map(async (key, j) => {
        out[i + j] = await previewShoot(db, key, change, now, refusals[i + j]);
      }),
    );
  }
  return out;
}
