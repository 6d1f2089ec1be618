// Runs before every page request (not the API, not static files): a visitor with neither a
// session cookie nor a bearer token, nor a trusted proxy's word for them (the internal header the
// web server sets only then), goes to the sign-in page at once, with the way back. This is only
// the quick check: the console layout checks the caller for real on the server, and every API
// route checks for itself. The path travels on as a request header for that layout.
import { type NextRequest, NextResponse } from "next/server";
import { PROXY_USER_HEADER } from "@/lib/auth/proxy-headers.ts";

const PUBLIC_PAGES = ["/sign-in", "/setup"];
const SESSION_COOKIE = /(^|;\s*)(__Secure-)?almanac\.session_token=/;

export default function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return NextResponse.next();
  const headers = new Headers(request.headers);
  const credentials =
    headers.has("authorization") || headers.has(PROXY_USER_HEADER) || SESSION_COOKIE.test(headers.get("cookie") ?? "");
  if (!credentials) {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("next", `${pathname}${search}`);
    return NextResponse.redirect(signIn);
  }
  headers.set("x-almanac-path", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: the API and /metrics answer 401 themselves, and Next's assets and the icon are public.
  matcher: ["/((?!api/|_next/|icon.svg|favicon.ico|healthz|readyz|metrics).*)"],
};
