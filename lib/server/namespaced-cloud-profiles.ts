// GET /api/v1/namespacedcloudprofiles?parent= (those in the namespaces the caller may read) and
// GET /api/v1/namespaces/{ns}/namespacedcloudprofiles/{name}: the garden's NamespacedCloudProfiles
// as Gardener has them, status.cloudProfileSpec (the merge shoots are read against) included.
import type { Db } from "../db/client.ts";
import type { NamespacedCloudProfile } from "../gardener/types.ts";
import { notFound } from "../api/refusal.ts";
import { findNamespacedCloudProfile, listNamespacedCloudProfiles } from "../store/namespaced-cloud-profiles.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";

export async function listNamespacedProfiles(
  db: Db,
  { parent }: { readonly parent?: string },
  scope: FleetScope,
): Promise<{ items: NamespacedCloudProfile[] }> {
  return { items: await listNamespacedCloudProfiles(db, { parent, namespaces: scopedNamespaces(scope) }) };
}

export async function getNamespacedProfile(db: Db, namespace: string, name: string): Promise<NamespacedCloudProfile> {
  const profile = await findNamespacedCloudProfile(db, namespace, name);
  if (!profile) throw notFound(`Namespaced cloud profile ${namespace}/${name} does not exist.`);
  return profile;
}
