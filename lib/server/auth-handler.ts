// Hands /api/auth/* to better-auth (made on first use, with the database's secret).
import { auth } from "../auth/better-auth.ts";
import { db } from "../db/client.ts";

export async function authHandler(request: Request): Promise<Response> {
  return (await auth(db())).handler(request);
}
