// Tokens (API tokens, the setup link's) are long random strings, so a plain SHA-256 is enough to
// store them safely; a slow password hash would only slow every request down.
import { createHash, randomBytes } from "node:crypto";

/** A new token: 32 random bytes, with a prefix that says what it is when it turns up in a log. */
export const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString("base64url")}`;

export const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
