// GET /api/v1/migrations: control-plane migrations across the fleet (or the caller's projects),
// newest first.
import { z } from "zod";
import type { FleetMigrationsAnswer } from "../api/migration.ts";
import type { Db } from "../db/client.ts";
import { listMigrations } from "../store/migrations.ts";
import { parseQuery } from "../api/parse-query.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";
import { migrationView } from "./migration-view.ts";

export const migrationsParams = z.strictObject({
  active: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export async function listFleetMigrations(
  db: Db,
  search: URLSearchParams,
  scope: FleetScope,
  now: number,
): Promise<FleetMigrationsAnswer> {
  const params = parseQuery(migrationsParams, search);
  const stored = await listMigrations(db, {
    active: params.active,
    namespaces: scopedNamespaces(scope),
    limit: params.limit,
  });
  return { items: stored.map((m) => ({ namespace: m.namespace, name: m.name, ...migrationView(m, now) })) };
}
