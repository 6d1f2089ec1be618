// What the fleet runs of one cloud profile, counted in the database from each shoot's stored
// summary (its control plane's version and its worker pools' images and versions), so that the
// cloud profile page needs no list of its shoots (tens of thousands on a large landscape).
// lib/ui/profile-usage.ts says what each count means; a test holds the two equal.
import { Prisma } from "../db/generated/client.ts";
import type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

const counts = (rows: readonly { key: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.key, r.n]));

/** The counts over the shoots of `cloudProfile` in `namespaces` (undefined: every namespace). */
export async function cloudProfileUsage(
  db: Queryable,
  cloudProfile: string,
  namespaces: readonly string[] | undefined,
): Promise<CloudProfileUsageAnswer> {
  const inScope =
    namespaces === undefined ? Prisma.empty : Prisma.sql`AND s.namespace = ANY(${[...namespaces]}::text[])`;
  // Each shoot's versions (control plane, then its pools' own) and its pools' images.
  const versions = Prisma.sql`
    SELECT s.namespace, s.name, s.kubernetes_version AS version, false AS pool
    FROM shoots s WHERE s.cloud_profile = ${cloudProfile} ${inScope}
    UNION ALL
    SELECT s.namespace, s.name, w->>'kubernetesVersion', true
    FROM shoots s, jsonb_array_elements(s.summary->'workers') AS w
    WHERE s.cloud_profile = ${cloudProfile} ${inScope} AND w ? 'kubernetesVersion'`;
  const images = Prisma.sql`
    SELECT s.namespace, s.name, lower(w->'image'->>'name') || '@' || (w->'image'->>'version') AS key
    FROM shoots s, jsonb_array_elements(s.summary->'workers') AS w
    WHERE s.cloud_profile = ${cloudProfile} ${inScope} AND w->'image' ? 'version'`;
  const [shoots, kubernetes, kubernetesPools, imagePools, imageShoots, sets] = await Promise.all([
    rawQuery<{ n: number }>(
      db,
      Prisma.sql`SELECT count(*)::int AS n FROM shoots s WHERE s.cloud_profile = ${cloudProfile} ${inScope}`,
    ),
    rawQuery<{ key: string; n: number }>(
      db,
      Prisma.sql`SELECT version AS key, count(DISTINCT (namespace, name))::int AS n FROM (${versions}) v GROUP BY version`,
    ),
    rawQuery<{ key: string; n: number }>(
      db,
      Prisma.sql`SELECT version AS key, count(*)::int AS n FROM (${versions}) v WHERE pool GROUP BY version`,
    ),
    rawQuery<{ key: string; n: number }>(
      db,
      Prisma.sql`SELECT key, count(*)::int AS n FROM (${images}) i GROUP BY key`,
    ),
    rawQuery<{ key: string; n: number }>(
      db,
      Prisma.sql`SELECT key, count(DISTINCT (namespace, name))::int AS n FROM (${images}) i GROUP BY key`,
    ),
    rawQuery<{ versions: string[]; n: number }>(
      db,
      Prisma.sql`
      SELECT versions, count(*)::int AS n FROM (
        SELECT array_agg(DISTINCT version ORDER BY version) AS versions FROM (${versions}) v GROUP BY namespace, name
      ) s GROUP BY versions ORDER BY n DESC, versions`,
    ),
  ]);
  return {
    shoots: shoots[0].n,
    kubernetes: counts(kubernetes),
    kubernetesPools: counts(kubernetesPools),
    images: counts(imagePools),
    imageShoots: counts(imageShoots),
    kubernetesSets: sets.map((s) => ({ versions: s.versions, shoots: s.n })),
  };
}
