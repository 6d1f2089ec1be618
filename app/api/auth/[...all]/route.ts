// better-auth's own endpoints (sign in, sign out, session): public, since they are how one signs in.
// better-auth checks the origin of its state-changing requests and rate-limits sign-in itself.
import { authHandler } from "@/lib/http/auth-handler.ts";

export { authHandler as GET, authHandler as POST };
