// GET /api/v1/migrations: control-plane migrations across the fleet (or the caller's projects),
// newest first.
import type { z } from "zod";
import type { migrationsParams } from "../api/operations/migrations.ts";
import type { FleetMigrationsAnswer } from "../api/migration.ts";
import type { Db } from "../db/client.ts";
import { listMigrations } from "../store/migrations.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";
import { migrationView } from "./migration-view.ts";

export async function listFleetMigrations(
  db: Db,
  params: z.output<typeof migrationsParams>,
  scope: FleetScope,
  now: number,
): Promise<FleetMigrationsAnswer> {
  const stored = await listMigrations(db, {
    active: params.active,
    namespaces: scopedNamespaces(scope),
    limit: params.limit,
  });
  return { items: stored.map((m) => ({ namespace: m.namespace, name: m.name, ...migrationView(m, now) })) };
}
