// An update run's own events in the audit log (issue 29, item 2): made, approved, paused, resumed,
// cancelled, each stage started and finished, a gate that paused it, its end. Each names the run
// (target kind UpdateRun, its id) and carries the request id `run:<id>`, so the log's
// `updateRunId` ties them, and the run's writes to each shoot (`run:<id>:<n>`), to the run.
import type { FieldChange } from "../api/audit.ts";
import type { Queryable } from "../db/client.ts";
import type { RunEvent } from "../engine/update-run-progress.ts";
import { recordAuditEvent } from "../store/audit.ts";
import type { StoredRunStage, StoredUpdateRun } from "../store/update-runs.ts";

/** Who the audit log names for what the run's job does by itself. */
export const RUN_JOB_ACTOR = "system:almanac-update-run";

export const runRequestId = (runId: string) => `run:${runId}`;

/** A person's action on the run (create, approve, pause, resume, cancel). */
export async function recordRunAction(
  tx: Queryable,
  run: Pick<StoredUpdateRun, "id">,
  actor: string,
  action: "create" | "approve" | "pause" | "resume" | "cancel",
  changes: readonly FieldChange[],
): Promise<void> {
  await recordAuditEvent(tx, {
    actor,
    action: `update-run.${action}`,
    target: { kind: "UpdateRun", name: run.id },
    changes,
    requestId: runRequestId(run.id),
  });
}

/** What the run's job did by itself (a stage started or finished, the gate paused it, it ended). */
export async function recordRunEvent(
  tx: Queryable,
  run: Pick<StoredUpdateRun, "id" | "state">,
  event: RunEvent,
  stage: StoredRunStage | undefined,
  message: string | undefined,
  now: number,
): Promise<void> {
  const stageName = stage ? [{ field: "stage", before: null, after: stage.name }] : [];
  const words = message ? [{ field: "message", before: null, after: message }] : [];
  const [action, changes]: [string, FieldChange[]] =
    event.kind === "stage-started"
      ? ["update-run.stage-start", stageName]
      : event.kind === "stage-finished"
        ? ["update-run.stage-finish", [...stageName, { field: "stage.state", before: null, after: event.state }]]
        : event.kind === "gate-paused"
          ? ["update-run.gate-pause", [...stageName, { field: "state", before: run.state, after: "Paused" }, ...words]]
          : ["update-run.finish", [{ field: "state", before: run.state, after: event.state }, ...words]];
  await recordAuditEvent(tx, {
    actor: RUN_JOB_ACTOR,
    action,
    target: { kind: "UpdateRun", name: run.id },
    changes,
    requestId: runRequestId(run.id),
    at: new Date(now),
  });
}
