// When a shoot turned unhealthy, read from its status as the label is (status-label.ts, Gardener's
// ComputeShootStatus): the earliest moment among what makes it unhealthy now (a condition's
// lastTransitionTime, a failed last operation's or a last error's lastUpdateTime). The sweep reads
// it once, when it first sees the shoot unhealthy, and keeps it for as long as the shoot stays so:
// a retried operation updates its own time, which must not make the same spell a new event.
import type { Shoot } from "../gardener/types.ts";
import { labelOfConditionStatus } from "./status-label.ts";

export interface UnhealthyCause {
  /** epoch ms */
  readonly since: number;
  /** "condition APIServerAvailable: <message>", "last operation Reconcile Failed: …", "last error: …". */
  readonly cause: string;
}

const moment = (text: string | undefined) => {
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
};

/** What makes the shoot unhealthy with each cause's moment (those without a moment left out), earliest first. */
export function unhealthyCauses(status: Shoot["status"]): UnhealthyCause[] {
  const causes: UnhealthyCause[] = [];
  const add = (time: string | undefined, cause: string) => {
    const since = moment(time);
    if (since !== undefined) causes.push({ since, cause });
  };
  const op = status?.lastOperation;
  const errors = status?.lastErrors ?? [];
  const addErrors = () => {
    for (const e of errors) add(e.lastUpdateTime ?? op?.lastUpdateTime, `last error: ${e.description}`);
  };
  if (op && ((op.type === "Create" && op.state !== "Succeeded") || op.type === "Delete")) addErrors();
  else if (op) {
    for (const c of status?.conditions ?? [])
      if (labelOfConditionStatus(c.status) === "unhealthy")
        add(
          c.lastTransitionTime ?? c.lastUpdateTime,
          `condition ${c.type} ${c.status}${c.message ? `: ${c.message}` : ""}`,
        );
    if (op.state === "Processing") addErrors();
    else if (op.state !== "Succeeded")
      add(op.lastUpdateTime, `last operation ${op.type} ${op.state}${op.description ? `: ${op.description}` : ""}`);
  }
  return causes.sort((a, b) => a.since - b.since);
}

/** When the shoot turned unhealthy (the earliest cause's moment), or undefined when no cause has one. */
export function unhealthySince(status: Shoot["status"]): number | undefined {
  return unhealthyCauses(status)[0]?.since;
}
