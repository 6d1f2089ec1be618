import { db } from "@/lib/db/client.ts";
import { findCloudProfile } from "@/lib/garden/embedded/cloud-profiles.ts";
import { notFound } from "@/lib/http/api-error.ts";
import { json, route } from "@/lib/http/route.ts";

export const GET = route<{ name: string }>(async (_ctx, { name }) => {
  const profile = await findCloudProfile(db(), name);
  if (!profile) throw notFound(`Cloud profile ${name} does not exist.`);
  return json(profile);
});
