"use client";

// A page's filters kept in the URL query. The URL is the truth (shareable, survives a reload, the
// back button works), but router navigation lands a moment later: until the latest value asked
// for has landed, that value is shown, so a checkbox does not flick back and a value chosen
// meanwhile is not overwritten by an earlier one landing.
//
// A change is best given as an update of the current value (`set((f) => ({ ...f, status }))`):
// it is applied to the value last asked for, not to the value the caller last rendered, so two
// changes made before React renders again (a debounced search firing just as a select changes)
// both reach the URL. A whole value built from rendered props would drop the other change.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

export interface SearchLike {
  get(name: string): string | null;
}

export type FilterUpdate<T> = T | ((current: T) => T);

/**
 * `set(next)` replaces the history entry (typing, toggles); `set(next, "push")` adds one, so that
 * the back button undoes a filter chosen by a click.
 */
export function useUrlFilters<T>(
  parse: (search: SearchLike) => T,
  serialize: (value: T) => string,
): readonly [T, (next: FilterUpdate<T>, mode?: "push" | "replace") => void] {
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
  // What the next update applies to: the value last asked for, or the URL's once it caught up.
  // Kept outside rendering, so that it is current between a change and the render that shows it.
  const current = useRef<T>(fromUrl);
  useEffect(() => {
    landed.current = query;
    // An earlier request landing while a later one is on its way leaves the later value shown.
    if (asked.current.includes(query) && query !== asked.current.at(-1)) return;
    // The latest landed, or the URL changed otherwise (the back button): the URL is the truth.
    asked.current = [];
    current.current = parse(new URLSearchParams(query));
    setPending(null);
  }, [query]);
  const set = useCallback(
    (update: FilterUpdate<T>, mode: "push" | "replace" = "replace") => {
      const next = typeof update === "function" ? (update as (current: T) => T)(current.current) : update;
      current.current = next;
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
