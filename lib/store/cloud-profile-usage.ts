// What the fleet runs of one cloud profile, counted in the database from each shoot's stored
// summary (its control plane's version and its worker pools' images and versions), so that the
// cloud profile page needs no list of its shoots (tens of thousands on a large landscape).
// lib/ui/profile-usage.ts says what each count means; a test holds the two equal.
import { Prisma } from "../db/generated/client.ts";
import type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

/** The counts over the shoots of `cloudProfile` in `namespaces` (undefined: every namespace). */
export async function cloudProfileUsage(
  db: Queryable,
  cloudProfile: string,
  namespaces: readonly string[] | undefined,
): Promise<CloudProfileUsageAnswer> {
  const inScope =
    namespaces === undefined ? Prisma.empty : Prisma.sql`AND s.namespace = ANY(${[...namespaces]}::text[])`;
  // Each shoot's versions (control plane, then its pools' own) and its pools' images.
  // One statement reads each shoot's stored summary once (it is kept out of line): its versions
  // (control plane and pools, each once per shoot) and its pools' own versions and images.
  const rows = await rawQuery<{ part: string; key: string | null; versions: string[] | null; n: number }>(
    db,
    Prisma.sql`
    WITH s AS MATERIALIZED (
      SELECT s.namespace, s.name, s.kubernetes_version, s.summary->'workers' AS workers
      FROM shoots s WHERE s.cloud_profile = ${cloudProfile} ${inScope}),
    w AS MATERIALIZED (
      SELECT s.namespace, s.name, e->>'kubernetesVersion' AS version,
        CASE WHEN e->'image' ? 'version' THEN lower(e->'image'->>'name') || '@' || (e->'image'->>'version') END AS image
      FROM s, jsonb_array_elements(s.workers) AS e),
    v AS MATERIALIZED (
      SELECT namespace, name, kubernetes_version AS version FROM s
      UNION SELECT namespace, name, version FROM w WHERE version IS NOT NULL)
    SELECT 'shoots' AS part, NULL AS key, NULL::text[] AS versions, count(*)::int AS n FROM s
    UNION ALL SELECT 'kubernetes', version, NULL, count(*)::int FROM v GROUP BY version
    UNION ALL SELECT 'kubernetesPools', version, NULL, count(*)::int FROM w WHERE version IS NOT NULL GROUP BY version
    UNION ALL SELECT 'images', image, NULL, count(*)::int FROM w WHERE image IS NOT NULL GROUP BY image
    UNION ALL SELECT 'imageShoots', image, NULL, count(DISTINCT (namespace, name))::int FROM w
      WHERE image IS NOT NULL GROUP BY image
    UNION ALL SELECT 'sets', NULL, versions, count(*)::int FROM (
      SELECT array_agg(version ORDER BY version) AS versions FROM v GROUP BY namespace, name) AS x GROUP BY versions`,
  );
  const part = (name: string) => rows.filter((r) => r.part === name);
  const counts = (name: string) => Object.fromEntries(part(name).map((r) => [r.key ?? "", r.n]));
  return {
    shoots: part("shoots")[0]?.n ?? 0,
    kubernetes: counts("kubernetes"),
    kubernetesPools: counts("kubernetesPools"),
    images: counts("images"),
    imageShoots: counts("imageShoots"),
    kubernetesSets: part("sets").map((r) => ({ versions: r.versions ?? [], shoots: r.n })),
  };
}
