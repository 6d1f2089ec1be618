// An address no page answers: says so, with the way to the fleet, where every cluster is listed.
import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/states";

export const metadata: Metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-[1600px] px-6 py-16">
      <EmptyState
        title="There is no page at this address"
        action={
          <Link
            href="/shoots"
            className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          >
            Go to the fleet
          </Link>
        }
      >
        The link may be old, or mistyped. Every cluster is listed in the fleet.
      </EmptyState>
    </main>
  );
}
