// POST /api/v1/freezes: a new freeze period. A landscape-wide one needs the admin role on the whole
// landscape, a project's a role that may change that project's shoots (operator): a freeze stops
// changes, so whoever could make them may stop them. Audited.
import type { CreateFreezeRequest, FreezeJson } from "../api/freezes.ts";
import { conflict, unprocessable } from "../api/refusal.ts";
import { refusalByRole } from "../auth/authorize.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { freezeRequestErrors, parseRfc3339 } from "../engine/freezes.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { insertFreeze, projectNamespaces, unendedFreezes } from "../store/freezes.ts";
import { freezeJson } from "./freeze-view.ts";

/**
 * Freezes that have not ended, at most: every forecast read and every bulk start looks at each of
 * them, so their number is bounded (a landscape plans a few dozen at most).
 */
export const MAX_UNENDED_FREEZES = 100;

export async function createFreeze(
  db: Db,
  input: {
    body: CreateFreezeRequest;
    principal: Principal;
    actor: string;
    requestId: string;
    now: number;
    maxDays: number;
  },
): Promise<FreezeJson> {
  const { body, now } = input;
  const errors = freezeRequestErrors(body, now, input.maxDays).map(({ field, type, detail }) => ({
    field,
    type,
    detail,
  }));
  const project = body.project?.trim() || undefined;
  if (body.project !== undefined && project === undefined)
    errors.push({ field: "project", type: "Invalid", detail: "leave it out for a landscape-wide freeze" });
  const unsound = () =>
    unprocessable(`The freeze cannot be made: ${errors.map((e) => `${e.field} ${e.detail}`).join("; ")}.`, errors);
  if (errors.length > 0) throw unsound();

  // Only once the request is sound: a refusal then says the one thing left to change. Before the
  // project is looked up, so that whoever may not freeze it cannot learn whether it exists.
  const byRole = refusalByRole(input.principal, project === undefined ? "administer" : "operate", project);
  if (byRole) throw byRole;
  // The project's namespace files the audit event where the project's people read it.
  const namespace = project === undefined ? undefined : (await projectNamespaces(db, [project])).get(project);
  if (project !== undefined && namespace === undefined) {
    errors.push({ field: "project", type: "NotFound", detail: `there is no project ${project}` });
    throw unsound();
  }

  const start = new Date(parseRfc3339(body.start!.trim())!);
  const end = new Date(parseRfc3339(body.end!.trim())!);
  const reason = body.reason!.trim();
  const stored = await db.$transaction(async (tx) => {
    if ((await unendedFreezes(tx, new Date(now))) >= MAX_UNENDED_FREEZES)
      throw conflict(
        `Almanac keeps at most ${MAX_UNENDED_FREEZES} freezes that have not ended; delete one that is no longer needed first.`,
      );
    const freeze = await insertFreeze(tx, { start, end, reason, project: project ?? null, createdBy: input.actor });
    await recordAuditEvent(tx, {
      actor: input.actor,
      action: "freeze.create",
      target: { kind: "Freeze", name: freeze.id, ...(namespace !== undefined ? { namespace } : {}) },
      changes: [
        { field: "start", before: null, after: start.toISOString() },
        { field: "end", before: null, after: end.toISOString() },
        { field: "reason", before: null, after: reason },
        { field: "project", before: null, after: project ?? null },
      ],
      requestId: input.requestId,
    });
    return freeze;
  });
  return freezeJson(stored, now);
}
