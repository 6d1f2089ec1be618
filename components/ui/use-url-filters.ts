"use client";

// A page's filters kept in the URL query. The URL is the truth (shareable, survives a reload, the
// back button works), but router navigation lands a moment later: until the latest value asked
// for has landed, that value is shown, so a checkbox does not flick back and a value chosen
// meanwhile is not overwritten by an earlier one landing.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

export interface SearchLike {
  get(name: string): string | null;
}

/**
 * `set(next)` replaces the history entry (typing, toggles); `set(next, "push")` adds one, so that
 * the back button undoes a filter chosen by a click.
 */
export function useUrlFilters<T>(
  parse: (search: SearchLike) => T,
  serialize: (value: T) => string,
): readonly [T, (next: T, mode?: "push" | "replace") => void] {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = search.toString();
  const fromUrl = useMemo(() => parse(new URLSearchParams(query)), [query]);
  // The value last asked for, while the URL has not caught up with it.
  const [pending, setPending] = useState<{ value: T } | null>(null);
  // The queries asked for since the URL last caught up, the latest last (empty iff no pending).
  const asked = useRef<string[]>([]);
  const landed = useRef(query);
  useEffect(() => {
    landed.current = query;
    // An earlier request landing while a later one is on its way leaves the later value shown.
    if (asked.current.includes(query) && query !== asked.current.at(-1)) return;
    // The latest landed, or the URL changed otherwise (the back button): the URL is the truth.
    asked.current = [];
    setPending(null);
  }, [query]);
  const set = useCallback(
    (next: T, mode: "push" | "replace" = "replace") => {
      const nextQuery = serialize(next);
      // Already the URL, with nothing on its way that would land after it: nothing to do.
      if (nextQuery === landed.current && asked.current.length === 0) return;
      asked.current = [...asked.current, nextQuery];
      setPending({ value: next });
      const url = nextQuery ? `${pathname}?${nextQuery}` : pathname;
      if (mode === "push") router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [pathname, router, serialize],
  );
  return [pending ? pending.value : fromUrl, set] as const;
}
