// Versions in use expiring within N days: the shoots whose earliest expiry (shoots.earliest_expiry,
// derived on every write of either garden and rewritten when a cloud profile changes, as the
// fleet's expiry tiles read it) falls by the largest threshold, read along its index; then each
// such shoot's versions as the fleet list finds them (versionsInUse, against the profile it names,
// a NamespacedCloudProfile resolved), so that a shoot running two expiring versions has both.
import { Prisma } from "../db/generated/client.ts";
import { type Db, rawQuery } from "../db/client.ts";
import { expiringVersionEvents } from "../engine/notification-expiring-versions.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { versionsInUse } from "../engine/versions-in-use.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import { CHANGE_OVERLAP_MS, type SweepInput } from "./notification-events-producer.ts";

interface ExpiringShootRow {
  namespace: string;
  name: string;
  project: string;
  spec: Shoot["spec"];
}

/** Whether some version's expiration date, less one of `days`, lies in (from, to]: a threshold crossed. */
function thresholdCrossed(profiles: Iterable<CloudProfile>, days: readonly number[], from: number, to: number) {
  for (const profile of profiles) {
    const versions = [
      ...(profile.spec.kubernetes?.versions ?? []),
      ...(profile.spec.machineImages ?? []).flatMap((image) => image.versions ?? []),
    ];
    for (const v of versions) {
      const expires = v.expirationDate ? Date.parse(v.expirationDate) : Number.NaN;
      if (Number.isFinite(expires) && days.some((d) => expires - d * DAY_MS > from && expires - d * DAY_MS <= to))
        return true;
    }
  }
  return false;
}

export async function versionExpiringEvents(
  db: Db,
  { now, days, changedSince }: SweepInput,
): Promise<NewNotificationEvent[]> {
  const horizon = new Date(now + Math.max(...days) * DAY_MS);
  const profiles = await cachedCloudProfiles(db, now);
  // Since the last sweep, only a shoot written since (a cloud profile's change rewrites its
  // shoots) can have a new event, unless a version's moment crossed a threshold: then every shoot.
  const onlyWritten =
    changedSince !== undefined && !thresholdCrossed(profiles.values(), days, changedSince, now)
      ? Prisma.sql`AND updated_at > ${new Date(changedSince - CHANGE_OVERLAP_MS)}`
      : Prisma.empty;
  // Already expired versions count in earliest_expiry too, so a shoot with one of those and
  // another expiring soon is among these; the engine then keeps only what expires after now.
  const rows = await rawQuery<ExpiringShootRow>(
    db,
    Prisma.sql`SELECT namespace, name, project, spec FROM shoots WHERE earliest_expiry <= ${horizon} ${onlyWritten}`,
  );
  const events: NewNotificationEvent[] = [];
  for (const row of rows) {
    const shoot = { metadata: { namespace: row.namespace, name: row.name }, spec: row.spec } as Shoot;
    const versions = versionsInUse(shoot, profiles.get(profileKeyOf(shoot)), now);
    for (const event of expiringVersionEvents(row, versions, days, now))
      events.push({
        kind: "version-expiring",
        key: event.key,
        occurredAt: new Date(now),
        until: new Date(event.until),
        projects: [row.project],
        shoot: { namespace: row.namespace, name: row.name },
        days: event.days,
        summary: event.summary,
        data: event.data,
      });
  }
  return events;
}
