// What the fleet runs of one cloud profile, read from cloud_profile_usage_counts, which the
// database keeps from each shoot's stored summary (its control plane's version and its worker
// pools' images and versions) as shoots are written on either garden (its triggers, migration
// 20261127154620_cloud_profile_usage_counts): the cloud profile page reads a few rows of its
// profile, however many shoots run it. lib/ui/profile-usage.ts says what each count means; a
// test holds the two equal.
import { Prisma } from "../db/generated/client.ts";
import type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

/** The counts over the shoots of `cloudProfile` in `namespaces` (undefined: every namespace). */
export async function cloudProfileUsage(
  db: Queryable,
  cloudProfile: string,
  namespaces: readonly string[] | undefined,
): Promise<CloudProfileUsageAnswer> {
  // Every namespace's counts are kept together under namespace "" (no namespace is named "").
  const inScope =
    namespaces === undefined ? Prisma.sql`namespace = ''` : Prisma.sql`namespace = ANY(${[...namespaces]}::text[])`;
  const rows = await rawQuery<{ part: string; key: string; n: number }>(
    db,
    Prisma.sql`
    SELECT part, key, sum(count)::int AS n FROM cloud_profile_usage_counts
    WHERE cloud_profile = ${cloudProfile} AND ${inScope}
    GROUP BY part, key ORDER BY part, key`,
  );
  const part = (name: string) => rows.filter((r) => r.part === name);
  const counts = (name: string) => Object.fromEntries(part(name).map((r) => [r.key, r.n]));
  return {
    shoots: part("shoots")[0]?.n ?? 0,
    kubernetes: counts("kubernetes"),
    kubernetesPools: counts("kubernetesPools"),
    images: counts("images"),
    imageShoots: counts("imageShoots"),
    // A set's key is the JSON array of its versions, in order.
    kubernetesSets: part("sets").map((r) => ({ versions: JSON.parse(r.key) as string[], shoots: r.n })),
  };
}
