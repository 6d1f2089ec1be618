// The pages' check, on the server: who is signed in (session cookie, or a bearer token sent with
// the page request), else off to the sign-in page and back to where they were going.
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { identify, type Principal } from "@/lib/auth/principal.ts";
import { db } from "@/lib/db/client.ts";

/** The path the proxy saw (proxy.ts sets it), to come back to after signing in. */
export const PATH_HEADER = "x-almanac-path";

/** Once per request: the layout asks, and a page that needs the caller's roles asks again. */
export const signedIn = cache(async function signedIn(): Promise<Principal> {
  const requestHeaders = await headers();
  const principal = await identify(db, requestHeaders);
  if (principal) return principal;
  const path = requestHeaders.get(PATH_HEADER) ?? "/shoots";
  redirect(`/sign-in?next=${encodeURIComponent(path)}`);
});
