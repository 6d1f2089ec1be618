// GET .../cleanup: before a deletion, the resources it would leave (labelled no-cleanup) and the
// grace periods its cleanup would use, from the shoot and what Almanac knows runs inside it.
import type { ShootCleanupAnswer } from "../api/cleanup.ts";
import type { Db } from "../db/client.ts";
import { ANNOTATION_SKIP_CLEANUP, gracePeriodsInEffect, noCleanupResources } from "../engine/deletion-cleanup.ts";
import { findInventory } from "../store/inventories.ts";
import { getShoot } from "./get-shoot.ts";

export async function shootCleanup(db: Db, namespace: string, name: string): Promise<ShootCleanupAnswer> {
  const { shoot } = await getShoot(db, namespace, name);
  const inventory = await findInventory(db, namespace, name);
  const annotations = shoot.metadata.annotations ?? {};
  return {
    namespace,
    name,
    inventoryKnown: inventory !== undefined,
    skipCleanup: ANNOTATION_SKIP_CLEANUP in annotations,
    gracePeriods: gracePeriodsInEffect(shoot).map((g) => ({
      step: g.step,
      kinds: [...g.kinds],
      annotation: g.annotation,
      value: g.value ?? null,
      defaultFinalizeAfterSeconds: g.defaultFinalizeAfterSeconds,
      gracePeriodSeconds: g.options?.gracePeriodSeconds ?? null,
      finalizeAfterSeconds: g.options?.finalizeGracePeriodSeconds ?? null,
      skipped: g.skipped,
      error: g.error ?? null,
    })),
    noCleanup: noCleanupResources(inventory?.resources ?? []).map((r) => ({
      kind: r.kind,
      namespace: r.namespace ?? null,
      name: r.name,
      finalizers: [...r.finalizers],
      outcome: r.outcome,
    })),
  };
}
