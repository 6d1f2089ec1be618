"use client";

// Code that loads on demand (next/dynamic) fetched ahead, once the page is idle after it became
// interactive: a dialog then opens at once on a click, even when the server answers slowly.
import { useEffect } from "react";

export function usePreload(...loaders: (() => Promise<unknown>)[]) {
  useEffect(() => {
    const load = () => loaders.forEach((l) => void l().catch(() => {}));
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(load, { timeout: 2_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(load, 200);
    return () => window.clearTimeout(id);
    // The loaders are module-level imports: once per mount is enough.
  }, []);
}
