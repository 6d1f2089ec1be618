import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { ShootLifecycle } from "@/components/shoot/shoot-lifecycle";
import { db } from "@/lib/db/client.ts";
import { getShoot } from "@/lib/server/get-shoot.ts";
import { queryKeys } from "@/lib/ui/query-keys.ts";

type Params = { namespace: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { namespace, name } = await params;
  return { title: `${name} (${namespace})` };
}

export default async function ShootPage({ params }: { params: Promise<Params> }) {
  const { namespace, name } = await params;
  // The shoot comes with the HTML (read in-process); its parts load in the browser. A shoot
  // that does not exist is left to the page, which says so.
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({
    queryKey: queryKeys.shoot(namespace, name),
    queryFn: async () => (await getShoot(db(), namespace, name)).shoot,
  });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ShootLifecycle namespace={namespace} name={name} />
    </HydrationBoundary>
  );
}
