// What the cloud profile usage tests compare: every fleet-list row of a profile (the page's own
// count's input), and a usage as plain values.
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import type { ShootRow } from "../../lib/api/shoot-list.ts";
import type { Db } from "../../lib/db/client.ts";
import { listShoots } from "../../lib/server/list-shoots.ts";
import type { profileUsage } from "../../lib/ui/profile-usage.ts";

/** Every fleet-list row of `cloudProfile` (within `within`'s namespaces when given), page after page. */
export async function listedRows(
  db: Db,
  now: number,
  cloudProfile: string,
  within?: readonly string[],
): Promise<ShootRow[]> {
  const rows: ShootRow[] = [];
  let cursor: string | undefined;
  do {
    const params = listShootsParams.parse({ cloudProfile, limit: "500", ...(cursor ? { cursor } : {}) });
    const page = await listShoots(db, params, now, within);
    rows.push(...page.items.map((item) => JSON.parse(item) as ShootRow));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/** Maps and sets as plain, comparable values. */
export const plainUsage = (u: ReturnType<typeof profileUsage>) => ({
  shoots: u.shoots,
  kubernetes: Object.fromEntries(u.kubernetes),
  kubernetesPools: Object.fromEntries(u.kubernetesPools),
  images: Object.fromEntries(u.images),
  imageShoots: Object.fromEntries(u.imageShoots),
  sets: u.kubernetesSets.map((s) => `${[...s.versions].sort().join(" ")} x${s.shoots}`).sort(),
});
