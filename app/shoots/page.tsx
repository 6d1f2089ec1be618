import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { Suspense } from "react";
import { FleetPage } from "@/components/fleet/fleet-page";
import { LoadingBlock } from "@/components/ui/states";
import { prefetchFleet } from "@/lib/server/fleet-prefetch.ts";
import { FIRST_PAGE } from "@/lib/ui/fleet-filters.ts";

export const metadata: Metadata = { title: "Fleet" };

type Search = Record<string, string | string[] | undefined>;

export default async function ShootsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    if (typeof value === "string") search.set(key, value);
  }
  const queryClient = await prefetchFleet(search, FIRST_PAGE);
  // The filters live in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Suspense fallback={<LoadingBlock label="Loading the fleet" lines={10} />}>
        <FleetPage />
      </Suspense>
    </HydrationBoundary>
  );
}
