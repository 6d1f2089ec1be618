"use client";

// What a page shows when it fails while rendering (a bug, or data it cannot read): what failed
// and a way to try again, inside the navigation instead of a blank screen. Retry drops the
// cached answers first (the page would otherwise render the same data and fail the same way),
// then asks the server for the page again. A server component's message is withheld in
// production builds; its digest finds the failure in the server's log.
import { useQueryClient } from "@tanstack/react-query";
import { ErrorState } from "@/components/ui/states";

export default function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  const queryClient = useQueryClient();
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  const detail = digest
    ? `The server could not render it; its log names this failure ${digest}.`
    : error instanceof Error && error.message
      ? error.message
      : "An unexpected error.";
  const again = () => {
    void queryClient.resetQueries();
    retry();
  };
  return <ErrorState title="This page failed to show" error={detail} onRetry={again} />;
}
