"use client";

// A page's filters kept in the URL query. The URL is the truth (shareable, survives a reload, the
// back button works), but router.replace lands a moment later: until it does, the value just
// asked for is shown, so a checkbox does not flick back while the URL catches up.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";

export interface SearchLike {
  get(name: string): string | null;
}

export function useUrlFilters<T>(parse: (search: SearchLike) => T, serialize: (value: T) => string): readonly [T, (next: T) => void] {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = search.toString();
  const fromUrl = useMemo(() => parse(new URLSearchParams(query)), [query]);
  const [pending, setPending] = useState<{ value: T } | null>(null);
  // Any change of the URL (ours landing, or the back button) makes it the truth again.
  useEffect(() => setPending(null), [query]);
  const set = (next: T) => {
    const nextQuery = serialize(next);
    setPending({ value: next });
    router.replace(nextQuery ? `${pathname}?${nextQuery}` : pathname, { scroll: false });
  };
  return [pending ? pending.value : fromUrl, set] as const;
}
