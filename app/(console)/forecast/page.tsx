import type { Metadata } from "next";
import { Suspense } from "react";
import { ForecastPage } from "@/components/forecast/forecast-page";
import { LoadingBlock } from "@/components/ui/states";

export const metadata: Metadata = { title: "Forecast" };

// The filters live in the URL query (useSearchParams), which needs a Suspense boundary.
export default function Forecast() {
  return (
    <Suspense fallback={<LoadingBlock label="Loading the forecast" lines={8} />}>
      <ForecastPage />
    </Suspense>
  );
}
