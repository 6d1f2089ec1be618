// NamespacedCloudProfiles in Postgres (namespaced_cloud_profiles): the documents as the garden has
// them (status.cloudProfileSpec included), keyed by namespace and name, with their parent's name.
import type { NamespacedCloudProfile } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Db, Tx } from "../db/client.ts";

interface Row {
  namespace: string;
  name: string;
  resourceVersion: number;
  document: unknown;
}

function toNamespacedProfile(row: Row): NamespacedCloudProfile {
  const doc = row.document as NamespacedCloudProfile;
  return {
    ...doc,
    apiVersion: GARDENER_API_VERSION,
    kind: "NamespacedCloudProfile",
    metadata: {
      ...doc.metadata,
      namespace: row.namespace,
      name: row.name,
      resourceVersion: String(row.resourceVersion),
    },
  };
}

/** Every NamespacedCloudProfile (of `parent` only, when given), by namespace and name. */
export async function listNamespacedCloudProfiles(
  tx: Tx | Db,
  where: { readonly parent?: string; readonly namespaces?: readonly string[] } = {},
): Promise<NamespacedCloudProfile[]> {
  const rows = await tx.namespacedCloudProfile.findMany({
    where: {
      ...(where.parent !== undefined ? { parent: where.parent } : {}),
      ...(where.namespaces !== undefined ? { namespace: { in: [...where.namespaces] } } : {}),
    },
    orderBy: [{ namespace: "asc" }, { name: "asc" }],
  });
  return rows.map(toNamespacedProfile);
}

export async function findNamespacedCloudProfile(
  tx: Tx | Db,
  namespace: string,
  name: string,
): Promise<NamespacedCloudProfile | undefined> {
  const row = await tx.namespacedCloudProfile.findUnique({ where: { namespace_name: { namespace, name } } });
  return row ? toNamespacedProfile(row) : undefined;
}

/** The seed's: new rows (the simulated garden has no garden resourceVersion). */
export async function insertNamespacedCloudProfiles(
  tx: Tx,
  profiles: readonly NamespacedCloudProfile[],
): Promise<void> {
  if (profiles.length === 0) return;
  await tx.namespacedCloudProfile.createMany({
    data: profiles.map((p) => {
      const { resourceVersion: _rv, ...metadata } = p.metadata;
      return {
        namespace: metadata.namespace ?? "",
        name: metadata.name,
        parent: p.spec.parent.name,
        document: { ...p, metadata } as unknown as Prisma.InputJsonObject,
      };
    }),
  });
}
