"use client";

import { useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches, following changes (a phone turned, a window resized). On
 * the server and at hydration it is false: what is drawn for wide screens first.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", changed);
      return () => list.removeEventListener("change", changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below Tailwind's sm breakpoint (640 px): a phone held upright. */
export const PHONE_QUERY = "(max-width: 639.98px)";
