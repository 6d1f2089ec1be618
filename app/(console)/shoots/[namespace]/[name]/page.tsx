import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ShootLifecycle } from "@/components/shoot/shoot-lifecycle";
import { allows } from "@/lib/auth/roles.ts";
import { db } from "@/lib/db/client.ts";
import { getShoot } from "@/lib/server/get-shoot.ts";
import { listProjects } from "@/lib/server/list-projects.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";
import { queryKeys } from "@/lib/ui/query-keys.ts";
import { signedIn } from "../../../signed-in.ts";

type Params = { namespace: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { namespace, name } = await params;
  return { title: `${name} (${namespace})` };
}

export default async function ShootPage({ params }: { params: Promise<Params> }) {
  const { namespace, name } = await params;
  // The shoot comes with the HTML (read in-process); its parts load in the browser. A shoot
  // that does not exist is left to the page, which says so. The caller's roles and the projects
  // come too, so the actions render enabled or disabled (with the reason) from the start.
  const queryClient = new QueryClient();
  const principal = await signedIn();
  await Promise.all([
    queryClient.prefetchQuery({
      queryKey: queryKeys.shoot(namespace, name),
      queryFn: async () => (await getShoot(db(), namespace, name)).shoot,
    }),
    queryClient.prefetchQuery({ queryKey: queryKeys.me, queryFn: () => whoAmI(principal) }),
    // Only a role below admin on the whole landscape needs to know the shoot's project.
    allows(principal.bindings, "administer")
      ? undefined
      : queryClient.prefetchQuery({ queryKey: queryKeys.projects, queryFn: () => listProjects(db()) }),
  ]);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ShootLifecycle namespace={namespace} name={name} />
    </HydrationBoundary>
  );
}
