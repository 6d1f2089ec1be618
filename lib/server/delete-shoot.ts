// DELETE /api/v1/namespaces/{ns}/shoots/{name}: as Gardener, only with the confirmation
// annotation confirmation.gardener.cloud/deletion=true, and not while a migration runs. The
// garden's write port marks the shoot deleted and starts the cleanup
// (lib/engine/deletion-cleanup.ts).
import type { ShootDeletionAnswer, StartedDeletionAnswer } from "../api/deletion.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Db } from "../db/client.ts";
import type { ShootWrites } from "../garden/shoot-writes.ts";
import { notFound } from "../api/refusal.ts";
import { latestDeletion } from "../store/deletions.ts";
import { refusalError } from "./shoot-refusal.ts";

export async function deleteShoot(
  garden: ShootWrites,
  req: { namespace: string; name: string; actor: string; requestId: string; identity: GardenIdentity; now: number },
): Promise<StartedDeletionAnswer> {
  const key = { namespace: req.namespace, name: req.name };
  const written = await garden.deleteShoot(
    { name: req.actor, requestId: req.requestId, identity: req.identity },
    key,
    req.now,
  );
  if (!written.ok) throw refusalError(written.refusal, key, "delete");
  const { id, flow } = written.value;
  return {
    id,
    namespace: req.namespace,
    name: req.name,
    steps: flow.steps.map((s) => ({
      name: s.name,
      deletes: [...s.deleted],
      keeps: [...s.kept],
      seconds: s.seconds,
      forced: s.forced,
      skipped: s.skipped === true,
    })),
    message: `Shoot ${req.namespace}/${req.name} is being deleted; its resources are cleaned up in ${flow.steps.length - 1} steps.`,
  };
}

/** GET .../deletion: the latest deletion of the shoot, with its steps (also after the shoot is gone). */
export async function shootDeletion(db: Db, namespace: string, name: string): Promise<ShootDeletionAnswer> {
  const record = await latestDeletion(db, namespace, name);
  if (!record) throw notFound(`Shoot ${namespace}/${name} has not been deleted.`);
  const flow = record.flow;
  const iso = (ms?: number) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    namespace,
    name,
    actor: record.actor,
    state: flow.state,
    startedAt: iso(flow.startedAt),
    finishedAt: iso(flow.finishedAt),
    steps: flow.steps.map((s) => ({
      name: s.name,
      startedAt: iso(s.startedAt),
      endedAt: iso(s.endedAt),
      message: s.message ?? null,
      deletes: [...s.deleted],
      keeps: [...s.kept],
      forced: s.forced,
      skipped: s.skipped === true,
      // Attempts the task's timeout (or an unreadable annotation) cut short, as lastErrors said.
      errors: (s.attempts ?? []).flatMap((a) => (a.error === undefined ? [] : [a.error])),
    })),
  };
}
