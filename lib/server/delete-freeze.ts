// DELETE /api/v1/freezes/{id}: removes a freeze period; it needs what making it needed (admin for a
// landscape-wide freeze, operator on its project for a project's). Audited.
import { notFound } from "../api/refusal.ts";
import { refusalByRole } from "../auth/authorize.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { deleteFreeze as storeDelete, findFreeze, projectNamespaces } from "../store/freezes.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function deleteFreeze(
  db: Db,
  input: { id: string; principal: Principal; actor: string; requestId: string },
): Promise<void> {
  const missing = () => notFound(`There is no freeze with the id ${input.id}.`);
  if (!UUID.test(input.id)) throw missing();
  const freeze = await findFreeze(db, input.id);
  if (!freeze) throw missing();
  const project = freeze.project ?? undefined;
  const byRole = refusalByRole(input.principal, project === undefined ? "administer" : "operate", project);
  if (byRole) throw byRole;
  const namespace = project === undefined ? undefined : (await projectNamespaces(db, [project])).get(project);
  await db.$transaction(async (tx) => {
    const removed = await storeDelete(tx, input.id);
    if (!removed) throw missing();
    await recordAuditEvent(tx, {
      actor: input.actor,
      action: "freeze.delete",
      target: { kind: "Freeze", name: removed.id, ...(namespace !== undefined ? { namespace } : {}) },
      changes: [
        { field: "start", before: removed.start.toISOString(), after: null },
        { field: "end", before: removed.end.toISOString(), after: null },
        { field: "reason", before: removed.reason, after: null },
        { field: "project", before: removed.project, after: null },
      ],
      requestId: input.requestId,
    });
  });
}
