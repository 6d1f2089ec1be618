// A password as PostgreSQL stores it for scram-sha-256 (RFC 5802/7677; what libpq's
// PQencryptPasswordConn makes for psql's \password). Sending this instead of the password in
// ALTER ROLE means the password itself never reaches the server, so no server log (a failed
// statement is logged with its text) can show it.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";

const ITERATIONS = 4096; // PostgreSQL's default scram_iterations

export function scramSha256Secret(password: string, salt: Buffer = randomBytes(16)): string {
  // SASLprep would normalise the password first; callers pass ASCII, which it leaves as is.
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
