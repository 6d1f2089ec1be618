"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { LiveUpdates } from "./live/live-updates";

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser tab, created on first render: a module-level client would be shared
  // between requests during server rendering. Live events keep data fresh, so a long staleTime
  // only saves refetches on focus; a failed request is retried twice before the page says so.
  const [queryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 2, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <LiveUpdates>{children}</LiveUpdates>
    </QueryClientProvider>
  );
}
