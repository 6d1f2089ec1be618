// GET /api/v1/cloudprofiles/{name}/usage: what the shoots the caller may read run of one cloud
// profile (404 for a profile that does not exist).
import type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
import type { Db } from "../db/client.ts";
import { notFound } from "../api/refusal.ts";
import { cloudProfileUsage } from "../store/cloud-profile-usage.ts";
import { findCloudProfile } from "../store/cloud-profiles.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";

export async function getCloudProfileUsage(db: Db, name: string, scope: FleetScope): Promise<CloudProfileUsageAnswer> {
  // Both at once: the counts are a read of a few kept rows, as cheap as the profile's own.
  const [profile, usage] = await Promise.all([
    findCloudProfile(db, name),
    cloudProfileUsage(db, name, scopedNamespaces(scope)),
  ]);
  if (!profile) throw notFound(`Cloud profile ${name} does not exist.`);
  return usage;
}
