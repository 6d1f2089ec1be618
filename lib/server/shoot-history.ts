// GET .../history: the shoot's maintenance runs and audit events, newest first.
import type { ShootHistoryAnswer } from "../api/history.ts";
import type { Db } from "../db/client.ts";
import { listAuditEvents } from "../store/audit.ts";
import { listMaintenanceRuns } from "../store/maintenance-runs.ts";
import { getShoot } from "./get-shoot.ts";

export async function shootHistory(
  db: Db,
  namespace: string,
  name: string,
  limit: number,
): Promise<ShootHistoryAnswer> {
  await getShoot(db, namespace, name); // 404 for an unknown shoot
  const [runs, events] = await Promise.all([
    listMaintenanceRuns(db, namespace, name, limit),
    listAuditEvents(db, { kind: "Shoot", namespace, name, limit }),
  ]);
  const items = [
    ...runs.map((run) => ({
      type: "maintenance" as const,
      at: run.startedAt ?? run.scheduledFor ?? run.createdAt,
      ...run,
    })),
    ...events.map((event) => ({ type: "audit" as const, ...event })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { items: items.slice(0, limit) };
}
