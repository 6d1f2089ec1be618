// The secret that signs session cookies: random, made on first use and kept in the database, so
// every web process and replica signs alike and no constant ships with the code.
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client.ts";
import { settingOrCreate } from "../store/app-settings.ts";

export function authSecret(db: Db): Promise<string> {
  return settingOrCreate(db, "auth-secret", () => randomBytes(32).toString("base64url"));
}
