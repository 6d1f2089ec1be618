"use client";

// The fleet filters, read from and written to the URL. Writes replace the history entry for
// typing (no entry per keystroke) and push one for clicks, so "back" undoes a filter.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { filtersFromSearch, searchFromFilters, type FleetFilters } from "@/lib/ui/fleet-filters";

export function useFleetFilters() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search.toString())), [search]);
  const setFilters = useCallback((next: FleetFilters, mode: "push" | "replace" = "push") => {
    const query = searchFromFilters(next);
    const url = query ? `${pathname}?${query}` : pathname;
    if (mode === "push") router.push(url, { scroll: false });
    else router.replace(url, { scroll: false });
  }, [pathname, router]);
  return { filters, setFilters };
}
