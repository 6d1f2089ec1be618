// A shoot's history (GET .../history) as entries an operator reads at a glance: who did what,
// from which value to which, and why. A maintenance run is recorded twice by the server (the
// run with its reasons, and the audit event with the fields it changed); the two are shown as
// one entry.
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { MIRROR_CONFIG_FIELD } from "../engine/registry-mirrors.ts";
import type { AuditEvent, MaintenanceRunEntry, ShootHistoryAnswer } from "./api-types.ts";
import type { Tone } from "./status.ts";

interface EntryChange {
  readonly label: string;
  readonly from: string;
  readonly to: string;
  readonly reason?: string;
}

export interface HistoryEntry {
  readonly id: string;
  readonly at: string;
  readonly source: "maintenance" | "audit";
  readonly actor: string;
  readonly title: string;
  readonly tone: Tone;
  /** One word for the state, beside its icon ("Succeeded", "Failed", "Requested"). */
  readonly state: string;
  readonly changes: readonly EntryChange[];
  /** A failure reason, or what a run without changes said. */
  readonly note?: string;
  readonly requestId?: string;
}

const ACTIONS: Record<string, string> = {
  "shoot.update": "Changed the specification",
  "shoot.maintain": "Maintenance in the window",
  "shoot.maintain-now": "Maintenance (maintain now)",
  "shoot.maintain-now.request": "Asked for maintenance now",
  "shoot.migrate": "Started a control-plane migration",
  "shoot.migrate.succeeded": "Control-plane migration succeeded",
  "shoot.migrate.failed": "Control-plane migration failed",
  "shoot.delete": "Asked to delete the cluster",
  "shoot.deleted": "Cluster deleted",
  // What a live garden did by itself, as the mirror saw it.
  "shoot.observed": "Changed in the garden",
  "shoot.operation": "Operation ended in the garden",
};

const FIELDS: Record<string, string> = {
  "spec.kubernetes.version": "Kubernetes version",
  "spec.maintenance.timeWindow.begin": "Maintenance window begin",
  "spec.maintenance.timeWindow.end": "Maintenance window end",
  "spec.maintenance.autoUpdate.kubernetesVersion": "Auto-update Kubernetes patch versions",
  "spec.maintenance.autoUpdate.machineImageVersion": "Auto-update machine image versions",
  "spec.maintenance.confineSpecUpdateRollout": "Roll out spec changes only in the window",
  "spec.hibernation.enabled": "Hibernation",
  "spec.hibernation.schedules": "Hibernation schedules",
  "spec.tolerations": "Seed tolerations",
  "spec.seedName": "Seed (requested)",
  "status.seedName": "Seed",
  "status.lastOperation": "Last operation",
  [`metadata.annotations[${ANNOTATION_OPERATION}]`]: "Operation annotation",
  [MIRROR_CONFIG_FIELD]: "Registry mirrors",
};

/** A field path as words: `spec.provider.workers[name=gpu].machine.image.version` is `Pool "gpu" machine image`. */
export function fieldLabel(field: string): string {
  if (FIELDS[field]) return FIELDS[field];
  const pool =
    /^spec\.provider\.workers\[name=([^\]]+)\]\.(machine\.image\.version|machine\.image\.name|kubernetes\.version)$/.exec(
      field,
    );
  if (pool) {
    const what = { "kubernetes.version": "Kubernetes version", "machine.image.name": "machine image name" }[pool[2]];
    return `Pool "${pool[1]}" ${what ?? "machine image"}`;
  }
  const annotation = /^metadata\.annotations\[(.+)\]$/.exec(field);
  if (annotation) return `Annotation ${annotation[1]}`;
  return field;
}

/** A recorded value as text: "—" for none, JSON for anything structured. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string" || typeof value === "number") return String(value);
  // A list of tolerations (spec.tolerations): "dedicated=payments, gpu".
  if (Array.isArray(value) && value.every((t) => typeof t?.key === "string"))
    return value.map((t) => (typeof t.value === "string" ? `${t.key}=${t.value}` : t.key)).join(", ") || "—";
  // Hibernation schedules (spec.hibernation.schedules): "00 19 * * 1-5 → 00 07 * * 1-5 (Europe/Berlin)".
  if (Array.isArray(value) && value.every(isSchedule)) return value.map(scheduleText).join("; ") || "—";
  return JSON.stringify(value);
}

type ScheduleValue = { start?: unknown; end?: unknown; location?: unknown };
const isSchedule = (v: unknown): v is ScheduleValue =>
  typeof v === "object" &&
  v !== null &&
  ("start" in v || "end" in v) &&
  Object.keys(v).every((k) => k === "start" || k === "end" || k === "location");
const scheduleText = (s: ScheduleValue) =>
  `${typeof s.start === "string" ? s.start : "—"} → ${typeof s.end === "string" ? s.end : "—"} (${typeof s.location === "string" ? s.location : "UTC"})`;

/** A registry-mirror providerConfig as "upstream → host, host; …" (JSON when it does not read so). */
function mirrorsText(value: unknown): string {
  const mirrors = (value as { mirrors?: unknown } | null)?.mirrors;
  if (!Array.isArray(mirrors)) return valueText(value);
  return mirrors
    .map(
      (m: { upstream?: unknown; hosts?: { host?: unknown }[] }) =>
        `${String(m.upstream)} → ${(Array.isArray(m.hosts) ? m.hosts : []).map((h) => String(h?.host)).join(", ")}`,
    )
    .join("; ");
}

function changeLabel(change: MaintenanceRunEntry["changes"][number]): string {
  const who = change.target === "controlPlane" ? "Control plane" : `Pool "${change.target}"`;
  const what =
    change.kind === "kubernetes" ? "Kubernetes" : change.kind === "machineImage" ? "machine image" : change.kind;
  return `${who} ${what}`;
}

function fromRun(run: MaintenanceRunEntry, audit: AuditEvent | undefined): HistoryEntry {
  const failed = run.state === "Failed";
  return {
    id: `run:${run.id}`,
    at: run.at,
    source: "maintenance",
    actor: audit?.actor ?? "system:maintenance-controller",
    title: run.trigger === "maintain-now" ? "Maintenance (maintain now)" : "Maintenance in the window",
    tone: failed ? "red" : run.state === "Succeeded" ? "green" : "grey",
    state: run.state,
    changes: run.changes.map((c) => ({
      label: changeLabel(c),
      from: valueText(c.from),
      to: valueText(c.to),
      reason: c.reason,
    })),
    ...(failed && run.failureReason
      ? { note: run.failureReason }
      : run.changes.length === 0 && run.description
        ? { note: run.description }
        : {}),
  };
}

function fromAudit(event: AuditEvent): HistoryEntry {
  const failed = event.action.endsWith(".failed");
  const done = event.action.endsWith(".succeeded") || event.action === "shoot.deleted";
  return {
    id: `audit:${event.id}`,
    at: event.at,
    source: "audit",
    actor: event.actor,
    title: ACTIONS[event.action] ?? event.action,
    tone: failed ? "red" : done ? "green" : "grey",
    state: failed
      ? "Failed"
      : done
        ? "Succeeded"
        : event.action.endsWith(".request") || event.action === "shoot.migrate" || event.action === "shoot.delete"
          ? "Requested"
          : "Changed",
    changes: event.changes.map((c) => ({
      label: fieldLabel(c.field),
      from: c.field === MIRROR_CONFIG_FIELD ? mirrorsText(c.before) : valueText(c.before),
      to: c.field === MIRROR_CONFIG_FIELD ? mirrorsText(c.after) : valueText(c.after),
    })),
    ...(event.requestId ? { requestId: event.requestId } : {}),
  };
}

/** The entries, newest first, with each maintenance run and its audit event as one. */
export function historyEntries(items: ShootHistoryAnswer["items"]): HistoryEntry[] {
  const runs = items.filter((i): i is MaintenanceRunEntry => i.type === "maintenance");
  const isRunAudit = (e: AuditEvent) => e.action === "shoot.maintain" || e.action === "shoot.maintain-now";
  const runAt = (run: MaintenanceRunEntry) => Date.parse(run.at);
  const folded = new Map<string, AuditEvent>();
  const entries: HistoryEntry[] = [];
  for (const item of items) {
    if (item.type !== "audit" || !isRunAudit(item)) continue;
    const run = runs.find((r) => runAt(r) === Date.parse(item.at) && !folded.has(r.id));
    if (run) folded.set(run.id, item);
  }
  const foldedAudits = new Set([...folded.values()].map((e) => e.id));
  for (const item of items) {
    if (item.type === "maintenance") entries.push(fromRun(item, folded.get(item.id)));
    else if (!foldedAudits.has(item.id)) entries.push(fromAudit(item));
  }
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
