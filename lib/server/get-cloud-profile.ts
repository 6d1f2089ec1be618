// GET /api/v1/cloudprofiles/{name}: one cloud profile, or 404.
import type { Db } from "../db/client.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { notFound } from "../api/refusal.ts";
import { findCloudProfile } from "../store/cloud-profiles.ts";

export async function getCloudProfile(db: Db, name: string): Promise<CloudProfile> {
  const profile = await findCloudProfile(db, name);
  if (!profile) throw notFound(`Cloud profile ${name} does not exist.`);
  return profile;
}
