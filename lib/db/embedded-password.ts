// The embedded PostgreSQL's password: random per data folder, kept in <data>/postgres-password
// (mode 0600) so that every Almanac process on the folder can connect, and no one else on the
// machine can (the server listens on 127.0.0.1, which every local user reaches).
//
// The file is only written once the server accepts its password. A new password is first
// written to postgres-password.new, then set on the server, then renamed: a process killed in
// between leaves a folder the next start still opens. Folders made before this file existed
// have the fixed password the older versions used; the first start changes it.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { scramSha256Secret } from "./scram-secret.ts";

/** What Almanac versions before the password file set on every embedded server. */
export const LEGACY_PASSWORD = "almanac";

export interface PasswordFiles {
  readonly stored: string;
  readonly pending: string;
}

export function passwordFiles(root: string): PasswordFiles {
  const stored = path.join(root, "postgres-password");
  return { stored, pending: `${stored}.new` };
}

export function newPassword(): string {
  return randomBytes(32).toString("base64url");
}

export function readPassword(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  // A copied or restored folder may have loosened the mode; only the owner may read it.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const password = readFileSync(file, "utf8").trim();
  return password === "" ? undefined : password;
}

export function writePassword(file: string, password: string): void {
  rmSync(file, { force: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: "wx" });
}

interface Server {
  readonly port: number;
  readonly user: string;
}

function client(server: Server, password: string): pg.Client {
  return new pg.Client({ host: "127.0.0.1", port: server.port, user: server.user, password, database: "postgres" });
}

/** Whether the server takes `password` (false when it refuses it; other failures throw). */
async function accepts(server: Server, password: string): Promise<boolean> {
  const c = client(server, password);
  try {
    await c.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "28P01") return false; // invalid_password
    throw error;
  } finally {
    await c.end().catch(() => {});
  }
}

async function changePassword(server: Server, from: string, to: string): Promise<void> {
  const c = client(server, from);
  await c.connect();
  try {
    await c.query(`ALTER ROLE ${c.escapeIdentifier(server.user)} PASSWORD ${c.escapeLiteral(scramSha256Secret(to))}`);
  } finally {
    await c.end();
  }
}

/**
 * The password of the server on `port` serving the folder `root`. The owner of the server
 * (`settle`) also finishes what an earlier start left undone: it keeps a pending password the
 * server already accepts, and replaces the fixed password of older versions by a new one.
 */
export async function serverPassword(root: string, server: Server, settle: boolean): Promise<string> {
  const files = passwordFiles(root);
  const stored = readPassword(files.stored);
  if (stored !== undefined) return stored;
  const pending = readPassword(files.pending);
  if (pending !== undefined && (await accepts(server, pending))) {
    if (settle) renameSync(files.pending, files.stored);
    return pending;
  }
  if (!(await accepts(server, LEGACY_PASSWORD)))
    throw new Error(
      `The embedded PostgreSQL of ${root} accepts no password Almanac knows; ${files.stored} is missing. Restore it, or move the folder away to start afresh.`,
    );
  // Joining a server whose owner still uses the old password: changing it would lock the owner out.
  if (!settle) return LEGACY_PASSWORD;
  const password = newPassword();
  writePassword(files.pending, password);
  await changePassword(server, LEGACY_PASSWORD, password);
  renameSync(files.pending, files.stored);
  return password;
}
