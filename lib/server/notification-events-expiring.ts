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
import type { Shoot } from "../gardener/types.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import type { SweepInput } from "./notification-events-producer.ts";

interface ExpiringShootRow {
  namespace: string;
  name: string;
  project: string;
  spec: Shoot["spec"];
}

export async function versionExpiringEvents(db: Db, { now, days }: SweepInput): Promise<NewNotificationEvent[]> {
  const horizon = new Date(now + Math.max(...days) * DAY_MS);
  // Already expired versions count in earliest_expiry too, so a shoot with one of those and
  // another expiring soon is among these; the engine then keeps only what expires after now.
  const [rows, profiles] = await Promise.all([
    rawQuery<ExpiringShootRow>(
      db,
      Prisma.sql`SELECT namespace, name, project, spec FROM shoots WHERE earliest_expiry <= ${horizon}`,
    ),
    cachedCloudProfiles(db, now),
  ]);
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
