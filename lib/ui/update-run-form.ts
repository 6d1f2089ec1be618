// The new update run's form, pure: what the person fills in (a draft), the request it sends
// (POST /api/v1/update-runs, with dryRun for the preview), the list of shoots a stage names typed
// as "namespace/name" lines, and the server's field problems sorted to the fields they are about.
import { classificationAt } from "../engine/classification.ts";
import { compareVersions, tryParseVersion } from "../engine/version.ts";
import type { CloudProfile, ExpirableVersion } from "../gardener/types.ts";
import type { UpdateRunTarget } from "../api/update-runs.ts";
import { filtersFromSearch } from "./fleet-filters.ts";

/** What the form sends (POST /api/v1/update-runs): the contract's request, as this form fills it. */
export interface UpdateRunBody {
  readonly name: string;
  readonly target: UpdateRunTarget;
  readonly stages: readonly {
    readonly name: string;
    readonly filter?: Readonly<Record<string, string>>;
    readonly shoots?: readonly { readonly namespace: string; readonly name: string }[];
    readonly when: "now" | "window";
    /** A number of seconds; the text as typed when it is not one (the server names the field). */
    readonly soakSeconds?: number | string;
    readonly approval?: boolean;
  }[];
  readonly healthGate?: { readonly healthySeconds: number | string };
  readonly dryRun?: boolean;
}

export const TARGET_KINDS = ["maintain", "kubernetes", "machineImage"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const DURATION_UNITS = [
  { value: "seconds", label: "seconds", seconds: 1 },
  { value: "minutes", label: "minutes", seconds: 60 },
  { value: "hours", label: "hours", seconds: 3_600 },
  { value: "days", label: "days", seconds: 86_400 },
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number]["value"];

/** The fleet list's filters a stage may select by (GET /api/v1/shoots's query parameters). */
export const STAGE_FILTER_KEYS = [
  "q",
  "project",
  "status",
  "classification",
  "expiringWithinDays",
  "cloudProfile",
  "seed",
  "purpose",
  "labels",
] as const;
export type StageFilterKey = (typeof STAGE_FILTER_KEYS)[number];
export type StageFilter = Partial<Record<StageFilterKey, string>>;

export interface StageDraft {
  /** For React's list only: stays with the stage when stages move. */
  readonly key: string;
  readonly name: string;
  /** A fleet filter, or a list of shoots. */
  readonly select: "filter" | "shoots";
  readonly filter: StageFilter;
  /** "namespace/name", one a line (or separated by commas or spaces). */
  readonly shoots: string;
  readonly when: "now" | "window";
  readonly soak: string;
  readonly soakUnit: DurationUnit;
  readonly approval: boolean;
}

export interface RunDraft {
  readonly name: string;
  readonly targetKind: TargetKind;
  /** "1.33" (its latest patch), "1.33.4", or "latest-patch". */
  readonly kubernetes: string;
  readonly imageName: string;
  readonly imageVersion: string;
  readonly stages: readonly StageDraft[];
  readonly gate: boolean;
  readonly gateValue: string;
  readonly gateUnit: DurationUnit;
}

let keys = 0;
const nextKey = () => `stage-${++keys}`;

export function newStage(position: number): StageDraft {
  return {
    key: nextKey(),
    name: position === 0 ? "Canary" : `Stage ${position + 1}`,
    select: "filter",
    filter: {},
    shoots: "",
    when: "now",
    soak: "",
    soakUnit: "minutes",
    approval: false,
  };
}

export function newDraft(): RunDraft {
  return {
    name: "",
    targetKind: "maintain",
    kubernetes: "",
    imageName: "",
    imageVersion: "",
    stages: [newStage(0)],
    gate: false,
    gateValue: "10",
    gateUnit: "minutes",
  };
}

/** Moves the stage at `from` one place up (-1) or down (+1); the same list if it cannot move. */
export function moveStage(stages: readonly StageDraft[], from: number, by: -1 | 1): readonly StageDraft[] {
  const to = from + by;
  if (to < 0 || to >= stages.length) return stages;
  const next = [...stages];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

export interface ShootList {
  readonly shoots: readonly { namespace: string; name: string }[];
  /** The entries that are not "namespace/name". */
  readonly unreadable: readonly string[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** "garden-a/one, garden-b/two" or one a line; each shoot once. */
export function parseShootList(text: string): ShootList {
  const shoots: { namespace: string; name: string }[] = [];
  const unreadable: string[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
    const [namespace, name, ...rest] = entry.split("/");
    if (!namespace || !name || rest.length > 0 || !NAME.test(namespace) || !NAME.test(name)) {
      unreadable.push(entry);
      continue;
    }
    if (seen.has(entry)) continue;
    seen.add(entry);
    shoots.push({ namespace, name });
  }
  return { shoots, unreadable };
}

/** A number field with its unit, as seconds; the text itself when it is not a number (the server names it). */
function seconds(value: string, unit: DurationUnit): number | string | undefined {
  const text = value.trim();
  if (text === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return text;
  return Math.round(n * DURATION_UNITS.find((u) => u.value === unit)!.seconds);
}

/** The filter as the request carries it: the fleet list's query parameters, empty ones left out. */
export function stageFilterQuery(filter: StageFilter): Record<string, string> {
  return Object.fromEntries(
    STAGE_FILTER_KEYS.flatMap((k) => {
      const v = filter[k]?.trim();
      return v ? [[k, v]] : [];
    }),
  );
}

/** The request the form sends. Empty or unreadable fields are sent as they are, so the server names them. */
export function draftToRequest(draft: RunDraft, dryRun: boolean): UpdateRunBody {
  const target: UpdateRunBody["target"] =
    draft.targetKind === "maintain"
      ? { action: "maintain" }
      : draft.targetKind === "kubernetes"
        ? { kubernetes: draft.kubernetes.trim() }
        : { machineImage: { name: draft.imageName.trim(), version: draft.imageVersion.trim() } };
  const gate = draft.gate ? seconds(draft.gateValue, draft.gateUnit) : undefined;
  return {
    name: draft.name.trim(),
    target,
    stages: draft.stages.map((s) => {
      const soak = seconds(s.soak, s.soakUnit);
      return {
        name: s.name.trim(),
        ...(s.select === "filter"
          ? { filter: stageFilterQuery(s.filter) }
          : { shoots: parseShootList(s.shoots).shoots }),
        when: s.when,
        ...(soak !== undefined ? { soakSeconds: soak } : {}),
        ...(s.approval ? { approval: true } : {}),
      };
    }),
    ...(gate !== undefined ? { healthGate: { healthySeconds: gate } } : {}),
    ...(dryRun ? { dryRun: true } : {}),
  };
}

/**
 * The server's field problems (by field, as formProblems answers them) split into the run's own
 * (name, target, healthGate) and each stage's (`stages[1].filter` -> stage 1's `filter`).
 */
export function problemsByPart(fields: Readonly<Record<string, string>>): {
  run: Record<string, string>;
  stages: Record<number, Record<string, string>>;
} {
  const run: Record<string, string> = {};
  const stages: Record<number, Record<string, string>> = {};
  for (const [field, detail] of Object.entries(fields)) {
    const m = /^stages\[(\d+)\]\.?(.*)$/.exec(field);
    if (m) {
      const index = Number(m[1]);
      const rest = m[2] === "" ? "stage" : m[2]!.replace(/^(filter|shoots)(\.|\[).*$/, "$1");
      (stages[index] ??= {})[rest] ??= detail;
    } else {
      const top = field.replace(/^target\..*$/, "target").replace(/^healthGate\..*$/, "healthGate");
      run[top] ??= detail;
    }
  }
  return { run, stages };
}

export interface TargetChoices {
  /** Minor lines offered by some profile ("1.33"), newest first: "its latest patch". */
  readonly minors: readonly string[];
  /** Exact versions, newest first, each with the strongest classification any profile gives it. */
  readonly versions: readonly { readonly version: string; readonly classification: string }[];
  /** Machine images by name, each with its versions newest first. */
  readonly images: readonly { readonly name: string; readonly versions: readonly string[] }[];
}

const byVersionDesc = (a: string, b: string) => {
  const [x, y] = [tryParseVersion(a), tryParseVersion(b)];
  return x && y ? compareVersions(y, x) : b.localeCompare(a);
};

/**
 * What a run may target, from the cloud profiles: every Kubernetes version and machine image
 * version that is usable now (neither expired nor not yet available) in at least one profile. The
 * server still checks each cluster against its own profile (the preview says where it refuses).
 */
export function targetChoices(profiles: readonly Pick<CloudProfile, "spec">[], now: number): TargetChoices {
  const versions = new Map<string, string>();
  const images = new Map<string, Set<string>>();
  const usable = (v: ExpirableVersion) => {
    const c = classificationAt(v, now);
    return c === "expired" || c === "unavailable" ? undefined : c;
  };
  for (const profile of profiles) {
    for (const v of profile.spec.kubernetes?.versions ?? []) {
      const c = usable(v);
      if (!c || !tryParseVersion(v.version)) continue;
      // Supported in one profile beats deprecated or preview in another.
      if (versions.get(v.version) !== "supported") versions.set(v.version, c);
    }
    for (const image of profile.spec.machineImages ?? []) {
      const set = images.get(image.name) ?? new Set<string>();
      for (const v of image.versions) if (usable(v)) set.add(v.version);
      if (set.size > 0) images.set(image.name, set);
    }
  }
  const exact = [...versions.keys()].sort(byVersionDesc);
  const minors = [...new Set(exact.map((v) => v.split(".").slice(0, 2).join(".")))];
  return {
    minors,
    versions: exact.map((version) => ({ version, classification: versions.get(version)! })),
    images: [...images]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, set]) => ({ name, versions: [...set].sort(byVersionDesc) })),
  };
}

/**
 * A stage's filter from a fleet page's query string (`/update-runs/new?project=dev&status=healthy`),
 * each value checked as the fleet page checks its own (lib/ui/fleet-filters.ts); the sort is left
 * out, and so is a namespace (a project names it) or more than one status.
 */
export function stageFilterFromSearch(search: { get(name: string): string | null }): StageFilter {
  const f = filtersFromSearch(search);
  const filter: StageFilter = {
    q: f.q.trim() || undefined,
    project: f.project,
    status: f.status.length === 1 ? f.status[0] : undefined,
    classification: f.classification,
    expiringWithinDays: f.expiringWithinDays === undefined ? undefined : String(f.expiringWithinDays),
    cloudProfile: f.cloudProfile,
    seed: f.seed,
    purpose: f.purpose?.length ? f.purpose.join(",") : undefined,
    labels: f.labels,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as StageFilter;
}

/** A new run's draft whose first stage starts from `filter`. */
export function draftWithFilter(filter: StageFilter): RunDraft {
  const draft = newDraft();
  return { ...draft, stages: [{ ...draft.stages[0]!, filter }] };
}
