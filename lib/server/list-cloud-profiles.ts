// GET /api/v1/cloudprofiles: every cloud profile, in Gardener's shape.
import type { Db } from "../db/client.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { listCloudProfiles as storedCloudProfiles } from "../store/cloud-profiles.ts";

export async function listCloudProfiles(db: Db): Promise<{ items: CloudProfile[] }> {
  return { items: await storedCloudProfiles(db) };
}
