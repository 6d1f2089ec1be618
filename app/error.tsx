"use client";

// What a page shows when it fails while rendering (a bug, or data it cannot read): what failed
// and a way to try again, inside the navigation instead of a blank screen. Retry asks the server
// for the page again and re-renders it. A server component's message is withheld in production
// builds; its digest finds the failure in the server's log.
import { ErrorState } from "@/components/ui/states";

export default function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  const detail = digest
    ? `The server could not render it; its log names this failure ${digest}.`
    : error instanceof Error && error.message ? error.message : "An unexpected error.";
  return <ErrorState title="This page failed to show" error={detail} onRetry={retry} />;
}
