import type { Metadata } from "next";
import { Suspense } from "react";
import { FleetPage } from "@/components/fleet/fleet-page";
import { LoadingBlock } from "@/components/ui/states";

export const metadata: Metadata = { title: "Fleet" };

export default function ShootsPage() {
  // The filters live in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense fallback={<LoadingBlock label="Loading the fleet" lines={10} />}>
      <FleetPage />
    </Suspense>
  );
}
