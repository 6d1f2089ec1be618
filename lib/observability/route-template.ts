// The route template a request matched (/api/v1/namespaces/[namespace]/shoots/[name]), never its
// path: a metric labelled with raw paths would grow a series per shoot. Next knows the template
// and keeps it in its work store for the request (the store's `route`); Next has no public API
// for it, so this one file reads the store (Next is pinned; tests/api/metrics.test.ts fails if
// this stops working).
import { workAsyncStorage } from "next/dist/server/app-render/work-async-storage.external.js";

/** The label of a request outside any route Next knows of (never a path). */
export const UNKNOWN_ROUTE = "unknown";

/** The template of the route being served, or UNKNOWN_ROUTE. */
export function routeTemplate(): string {
  const route = workAsyncStorage.getStore()?.route;
  return typeof route === "string" && route.startsWith("/") ? route : UNKNOWN_ROUTE;
}
