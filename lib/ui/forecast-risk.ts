// The forecast's updates at risk (the engine's update-risk.ts, carried on each item) in words:
// how many, on how many shoots, and how many for each cause (the summary counts them).
import type { UpdateRiskCause } from "../engine/update-risk.ts";

export interface RiskCount {
  /** Updates at risk. */
  readonly updates: number;
  /** Shoots with an update at risk. */
  readonly shoots: number;
  /** Shoots per cause (a shoot counts once for each of its causes). */
  readonly byCause: Readonly<Partial<Record<UpdateRiskCause, number>>>;
}

export const CAUSE_WORDS: Record<UpdateRiskCause, string> = {
  deleting: "being deleted",
  maintenanceFailed: "maintenance failed",
  operationFailed: "operation failed",
  preconditionsFalse: "precondition False",
  hibernated: "hibernated",
};

/** "3 updates on 2 shoots: 2 maintenance failed, 1 hibernated". */
export function describeRiskCount(count: RiskCount): string {
  if (count.updates === 0) return "No update is at risk.";
  const causes = (Object.keys(CAUSE_WORDS) as UpdateRiskCause[])
    .filter((c) => count.byCause[c])
    .map((c) => `${count.byCause[c]} ${CAUSE_WORDS[c]}`);
  const updates = `${count.updates} ${count.updates === 1 ? "update" : "updates"}`;
  const shoots = `${count.shoots} ${count.shoots === 1 ? "shoot" : "shoots"}`;
  return `${updates} on ${shoots}: ${causes.join(", ")}.`;
}
