import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ShootLifecycle } from "@/components/shoot/shoot-lifecycle";
import { authorize } from "@/lib/auth/authorize.ts";
import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { gardenerDashboardBase } from "@/lib/server/dashboard-link.ts";
import { getShoot } from "@/lib/server/get-shoot.ts";
import { maintenancePlan } from "@/lib/server/maintenance-plan.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";
import { queryKeys } from "@/lib/client/query-keys.ts";
import { signedIn } from "../../../signed-in.ts";

type Params = { namespace: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { namespace, name } = await params;
  return { title: `${name} (${namespace})` };
}

/** The shoot's maintenance plan from this moment, as GET .../maintenance-plan answers it. */
const planFromNow = (namespace: string, name: string) => maintenancePlan(db(), namespace, name, Date.now());

export default async function ShootPage({ params }: { params: Promise<Params> }) {
  const { namespace, name } = await params;
  // The shoot comes with the HTML (read in-process) when the caller may read it, by the same
  // authorize() as the API's (their roles, and on a live garden its RBAC; a garden that cannot say
  // counts as "no": the browser then asks the API, which says why); its parts load in the browser. A
  // shoot that does not exist, or is not the caller's to read, is left to the page, which says
  // so. The caller's roles (GET /api/v1/me) come too, so the actions render enabled or disabled
  // (with the reason) from the start.
  const queryClient = new QueryClient();
  const principal = await signedIn();
  const { ok: readable } = await authorize(principal, { need: "read", namespace }, gardenAccess());
  await Promise.all([
    readable &&
      queryClient.prefetchQuery({
        queryKey: queryKeys.shoot(namespace, name),
        queryFn: async () => (await getShoot(db(), namespace, name)).shoot,
      }),
    // The header says what the cluster runs apart from what its spec asks, from the plan's
    // rollout: read with the HTML too, so the first paint never shows the asked version as running.
    readable &&
      queryClient.prefetchQuery({
        queryKey: queryKeys.shootPart(namespace, name, "maintenance-plan"),
        queryFn: () => planFromNow(namespace, name),
      }),
    queryClient.prefetchQuery({ queryKey: queryKeys.me, queryFn: () => whoAmI(db(), principal) }),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ShootLifecycle namespace={namespace} name={name} dashboardUrl={gardenerDashboardBase()} />
    </HydrationBoundary>
  );
}
