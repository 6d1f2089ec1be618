import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { FleetPage } from "@/components/fleet/fleet-page";
import { FIRST_PAGE } from "@/lib/ui/fleet-filters.ts";
import { signedIn } from "../signed-in.ts";
import { prefetchFleet } from "./prefetch-fleet.ts";

export const metadata: Metadata = { title: "Fleet" };

type Search = Record<string, string | string[] | undefined>;

export default async function ShootsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    if (typeof value === "string") search.set(key, value);
  }
  const queryClient = await prefetchFleet(search, FIRST_PAGE, await signedIn());
  // No Suspense boundary around the page: it is rendered per request with its data, and a
  // boundary would only delay the rows (React throttles revealing streamed boundaries).
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <FleetPage />
    </HydrationBoundary>
  );
}
