// A stored control-plane migration as the API shows it: its state, lastOperation and each step.
import type { MigrationView } from "../api/migration.ts";
import { migrationLastOperation } from "../engine/migration-flow.ts";
import type { StoredMigration } from "../store/migrations.ts";

const iso = (ms?: number) => (ms === undefined ? undefined : new Date(ms).toISOString());

export function migrationView(stored: StoredMigration, now: number): MigrationView {
  const flow = stored.flow;
  return {
    id: stored.id,
    actor: stored.actor,
    source: flow.source,
    destination: flow.destination,
    state: flow.state,
    startedAt: new Date(flow.startedAt).toISOString(),
    finishedAt: iso(flow.finishedAt),
    retryAt: iso(flow.retryAt),
    ...(flow.live ? { live: true } : {}),
    lastOperation: migrationLastOperation(flow, now, stored.name),
    steps: flow.steps.map((s) => ({
      name: s.name,
      startedAt: iso(s.startedAt),
      endedAt: iso(s.endedAt),
      outcome: s.outcome ?? null,
      message: s.message ?? null,
      attempts: s.attempts,
    })),
  };
}
