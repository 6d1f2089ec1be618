// Whether an update the maintenance controller promises ("the next window will force it to
// 1.30.14") is at risk, and why, in words that say the consequence and who must act. A promise
// is only as good as the shoot's record: a forced update that failed the last hundred windows
// will most likely fail the next one too.
//
// What Gardener does in each case (see /work/shared/spec/maintenance-reference.md §4 and
// shoot-status.md):
// - a shoot being deleted is skipped by the maintenance controller;
// - a failed maintenance (status.lastMaintenance state Failed) is tried again in the next window,
//   and fails again while its cause lasts (an admission webhook's rejection of the dry run, no
//   version in the cloud profile, a pool the profile cannot serve);
// - on a shoot whose last operation Failed the maintenance adds no `reconcile` (only `retry`, and
//   only with the needs-retry annotation); its spec change still moves the generation, so the
//   gardenlet reconciles again, and fails again while the cause of the failure lasts;
// - MaintenancePreconditionsSatisfied False does not stop the maintenance ("maintenance is still
//   being performed"); it warns that webhooks in the cluster may break the nodes' rolling update;
// - a hibernated shoot's spec is updated, but the new version runs only once it wakes up.
import type { Shoot } from "../gardener/types.ts";
import { ERR_INFRA_RATE_LIMITS_EXCEEDED, USER_ERROR_CODES } from "./last-errors.ts";
import { MAINTENANCE_PRECONDITIONS_SATISFIED } from "./shoot-constraints.ts";

export type UpdateRiskCause =
  "deleting" | "maintenanceFailed" | "operationFailed" | "preconditionsFalse" | "hibernated";

/** Who has to do something for the update to happen. */
export type UpdateRiskActor = "shootOwner" | "landscapeOperators" | "gardener" | "nobody";

export interface UpdateRiskReason {
  readonly cause: UpdateRiskCause;
  /** A few words for a badge or a table cell: "webhook denied (14×)". */
  readonly short: string;
  /** The consequence and what to do, one or two sentences starting in lower case. */
  readonly text: string;
  readonly actor: UpdateRiskActor;
  /** The error as Gardener recorded it, when there is one. */
  readonly error?: string;
}

export interface UpdateRisk {
  /** Most serious first. */
  readonly reasons: readonly UpdateRiskReason[];
  /** The first reason's short words. */
  readonly short: string;
  /** "At risk: the first reason. Also ...", every reason. */
  readonly summary: string;
  /** "At risk: the first reason. Also: hibernated." (the others in a few words). */
  readonly lead: string;
}

/** What a list row or a forecast item carries of a risk: its causes and words. */
export interface UpdateRiskBrief {
  readonly causes: readonly UpdateRiskCause[];
  /** A few words: "webhook denied (14×)". */
  readonly short: string;
  /** "At risk: ...", every reason: the consequence and who must act. */
  readonly summary: string;
  /** The first reason in full, the others in a few words. */
  readonly lead: string;
}

export function riskBrief(risk: UpdateRisk): UpdateRiskBrief {
  return { causes: risk.reasons.map((r) => r.cause), short: risk.short, summary: risk.summary, lead: risk.lead };
}

/** A maintenance run as Almanac recorded it (the history's runs). */
export interface RecordedRun {
  readonly state: string;
  readonly failureReason?: string | null;
  /** ISO 8601 or epoch ms: the runs are ordered by it, newest counted first. */
  readonly startedAt: string | number;
}

export const ACTOR_WORDS: Record<UpdateRiskActor, string> = {
  shootOwner: "the shoot's owner",
  landscapeOperators: "the landscape operators",
  gardener: "Gardener (it retries)",
  nobody: "nobody",
};

const APPLY_FAILED = "Updates to the Shoot failed to be applied: ";
const WEBHOOK_DENIED = /admission webhook "([^"]+)" denied the request(?:: ([\s\S]*))?$/;
const WEBHOOK_UNREACHABLE = /failed calling webhook "([^"]+)"/;

interface FailureExplained {
  readonly short: string;
  /** What it means and who must do what, a sentence. */
  readonly action: string;
  readonly actor: UpdateRiskActor;
}

/**
 * What a maintenance failure reason (Gardener's words, maintenance-reference.md §2-§4) means.
 * The dry run of the maintenance update is judged by the garden's API server, so the admission
 * webhooks that reject it are the garden's (its operators'), not webhooks inside the cluster.
 */
export function explainMaintenanceFailure(reason: string): FailureExplained {
  const denied = WEBHOOK_DENIED.exec(reason);
  if (denied)
    return {
      short: "webhook denied",
      actor: "landscapeOperators",
      action: `The garden's admission webhook "${denied[1]}" rejects every maintenance update of this shoot; whoever runs it in the garden (ask the landscape operators) must let the update through.`,
    };
  const unreachable = WEBHOOK_UNREACHABLE.exec(reason);
  if (unreachable)
    return {
      short: "webhook down",
      actor: "landscapeOperators",
      action: `The garden's admission webhook "${unreachable[1]}" does not answer, so the garden refuses the update; the landscape operators must repair the webhook.`,
    };
  if (reason.includes("reaching end of life and migration to another machine image is required"))
    return {
      short: "image end of life",
      actor: "shootOwner",
      action:
        "The machine image has no newer version to force; the shoot's owner must move the pool to another image (or the landscape operators add a version).",
    };
  if (
    reason.includes("No suitable version found in CloudProfile") ||
    reason.includes("could not determine higher suitable version") ||
    reason.includes("failed to determine the target version")
  )
    return {
      short: "no version",
      actor: "landscapeOperators",
      action:
        "The cloud profile offers no version to force the update to; the landscape operators must add one (or the shoot's owner update by hand to a version that exists).",
    };
  if (reason.includes("does not exist in cloudprofile") || reason.includes("could be found in the cloudProfile"))
    return {
      short: "pool not in profile",
      actor: "shootOwner",
      action:
        "A worker pool uses a machine type or image the cloud profile does not offer; the shoot's owner must change the pool.",
    };
  if (reason.startsWith(APPLY_FAILED))
    return {
      short: "update refused",
      actor: "shootOwner",
      action:
        "The garden refuses the updated shoot; the shoot's owner must fix what it names in the specification (or ask the landscape operators).",
    };
  return {
    short: "maintenance failed",
    actor: "landscapeOperators",
    action: "Ask the landscape operators what blocks the maintenance.",
  };
}

const runTime = (r: RecordedRun) => (typeof r.startedAt === "number" ? r.startedAt : Date.parse(r.startedAt));
const newestFirst = (runs: readonly RecordedRun[]) => [...runs].sort((a, b) => runTime(b) - runTime(a));

/** How many of the newest recorded runs failed in a row. */
function failedInARow(runs: readonly RecordedRun[]): number {
  const sorted = newestFirst(runs);
  let n = 0;
  while (n < sorted.length && sorted[n].state === "Failed") n++;
  return n;
}

/** When the oldest of the `count` newest failed runs ran (epoch ms). */
function firstOfStreak(runs: readonly RecordedRun[], count: number): number | undefined {
  const t = runTime(newestFirst(runs)[count - 1]);
  return Number.isFinite(t) ? t : undefined;
}

const dayWords = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

const stripPeriod = (s: string) => s.trim().replace(/\.+$/, "");

function maintenanceFailed(shoot: Shoot, runs: readonly RecordedRun[] | undefined): UpdateRiskReason | undefined {
  const last = shoot.status?.lastMaintenance;
  const recorded = runs ? failedInARow(runs) : 0;
  const lastFailed = last?.state === "Failed";
  // The recorded runs speak only when the shoot's own record agrees (a later success clears it).
  if (!lastFailed && !(runs && recorded > 0 && !last)) return undefined;
  const reason =
    (lastFailed ? last?.failureReason : undefined) ??
    runs?.find((r) => r.state === "Failed" && r.failureReason)?.failureReason ??
    undefined;
  const count = Math.max(recorded, 1);
  const since = runs && recorded > 1 ? firstOfStreak(runs, recorded) : undefined;
  const what =
    count === 1
      ? "the last maintenance failed"
      : since !== undefined
        ? `every maintenance since ${dayWords.format(since)} failed (${count} runs on record)`
        : `the last ${count} maintenance runs failed`;
  const error = reason ? stripPeriod(reason.startsWith(APPLY_FAILED) ? reason.slice(APPLY_FAILED.length) : reason) : "";
  const explained = explainMaintenanceFailure(reason ?? "");
  return {
    cause: "maintenanceFailed",
    short: count === 1 ? explained.short : `${explained.short} (${count}×)`,
    text: `${what}${error ? ` — ${error}` : ""}. Gardener tries again in every window and fails the same way while this lasts. ${explained.action}`,
    actor: explained.actor,
    ...(reason ? { error: reason } : {}),
  };
}

function operationFailed(shoot: Shoot): UpdateRiskReason | undefined {
  const op = shoot.status?.lastOperation;
  if (op?.state !== "Failed") return undefined;
  const errors = shoot.status?.lastErrors ?? [];
  const codes = errors.flatMap((e) => e.codes ?? []);
  const detail = stripPeriod(errors[0]?.description ?? op.description ?? "");
  const userCode = codes.find((c) => USER_ERROR_CODES.has(c));
  const rateLimited = codes.includes(ERR_INFRA_RATE_LIMITS_EXCEEDED);
  const actor: UpdateRiskActor = userCode ? "shootOwner" : rateLimited ? "gardener" : "landscapeOperators";
  const action = userCode
    ? `The shoot's owner must fix the cause (${userCode}).`
    : rateLimited
      ? "Gardener's retry controller retries it after a while; it clears when the provider's limits allow."
      : "Ask the landscape operators if it fails again.";
  return {
    cause: "operationFailed",
    short: `${op.type.toLowerCase()} failed`,
    text: `the last ${op.type.toLowerCase()} failed${detail ? ` — ${detail}` : ""}. The update's spec change starts a new reconcile, which will likely fail the same way until the cause is fixed. ${action}`,
    actor,
    ...(detail ? { error: detail } : {}),
  };
}

function preconditionsFalse(shoot: Shoot): UpdateRiskReason | undefined {
  const c = (shoot.status?.constraints ?? []).find((x) => x.type === MAINTENANCE_PRECONDITIONS_SATISFIED);
  if (c?.status !== "False") return undefined;
  const message = stripPeriod(c.message ?? c.reason ?? "");
  return {
    cause: "preconditionsFalse",
    short: "precondition False",
    text: `the constraint ${MAINTENANCE_PRECONDITIONS_SATISFIED} is False${message ? ` — ${message}` : ""}. Gardener still runs the maintenance, but the rolling update of the nodes may get stuck. The shoot's owner must fix the webhook in the cluster.`,
    actor: "shootOwner",
    ...(message ? { error: message } : {}),
  };
}

function hibernated(shoot: Shoot): UpdateRiskReason | undefined {
  if (shoot.spec.hibernation?.enabled !== true && shoot.status?.hibernated !== true) return undefined;
  return {
    cause: "hibernated",
    short: "hibernated",
    text: "the cluster is hibernated. The window updates its spec, but the new version runs only once the cluster is woken up; the shoot's owner decides when.",
    actor: "shootOwner",
  };
}

function deleting(shoot: Shoot): UpdateRiskReason | undefined {
  if (!shoot.metadata.deletionTimestamp) return undefined;
  return {
    cause: "deleting",
    short: "being deleted",
    text: "the cluster is being deleted. Gardener's maintenance skips it, so no update will happen.",
    actor: "nobody",
  };
}

/**
 * Whether the updates the maintenance controller promises for this shoot are at risk, and why;
 * undefined when nothing on record speaks against them. `runs` are the shoot's recorded
 * maintenance runs (any order), when the caller has them: they say how many failed in a row.
 */
export function updateRisk(shoot: Shoot, runs?: readonly RecordedRun[]): UpdateRisk | undefined {
  const reasons = [
    deleting(shoot),
    maintenanceFailed(shoot, runs),
    operationFailed(shoot),
    preconditionsFalse(shoot),
    hibernated(shoot),
  ].filter((r): r is UpdateRiskReason => r !== undefined);
  if (reasons.length === 0) return undefined;
  const [first, ...others] = reasons;
  return {
    reasons,
    lead: `At risk: ${first.text}${others.length > 0 ? ` Also: ${others.map((r) => r.short).join("; ")}.` : ""}`,
    short: reasons[0].short,
    summary: `At risk: ${reasons[0].text}${reasons
      .slice(1)
      .map((r) => ` Also ${r.text}`)
      .join("")}`,
  };
}
