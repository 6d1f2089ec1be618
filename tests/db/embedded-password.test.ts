// The embedded PostgreSQL's password: random per data folder, kept in <data>/postgres-password,
// and a folder from a version with the fixed password still opens (and gets a password of its own).
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { LEGACY_PASSWORD } from "../../lib/db/embedded-password.ts";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../lib/db/embedded-postgres.ts";

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function dataFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "almanac-password-"));
  folders.push(dir);
  return dir;
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Whether the server behind `db` lets the postgres user in with `password`. */
async function accepts(db: EmbeddedDatabase, password: string): Promise<boolean> {
  const url = new URL(db.adminUrl);
  url.password = encodeURIComponent(password);
  try {
    await sql(url.toString(), "SELECT 1");
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "28P01") return false;
    throw error;
  }
}

const passwordIn = (db: EmbeddedDatabase) => decodeURIComponent(new URL(db.url).password);
const fileOf = (dir: string) => path.join(dir, "postgres-password");

/** Makes `dir` look like a folder of a version before the password file: fixed password, no file. */
async function makeLegacy(dir: string): Promise<void> {
  const db = await startEmbeddedPostgres(dir);
  try {
    await sql(db.url, "CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)");
    await sql(db.adminUrl, `ALTER ROLE postgres PASSWORD '${LEGACY_PASSWORD}'`);
  } finally {
    await db.stop();
  }
  rmSync(fileOf(dir));
}

describe("the embedded PostgreSQL's password", () => {
  it("is made on first start, kept in a file only its owner reads, and used again on the next", async () => {
    const dir = dataFolder();
    const first = await startEmbeddedPostgres(dir);
    let password: string;
    try {
      password = passwordIn(first);
      expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(readFileSync(fileOf(dir), "utf8").trim()).toBe(password);
      expect(statSync(fileOf(dir)).mode & 0o777).toBe(0o600);
      expect(existsSync(`${fileOf(dir)}.new`)).toBe(false);
      expect(await accepts(first, LEGACY_PASSWORD)).toBe(false);
      expect(await sql(first.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres(dir);
    try {
      expect(passwordIn(second)).toBe(password);
    } finally {
      await second.stop();
    }
    expect(readFileSync(path.join(dir, "postgres.log"), "utf8")).not.toContain(password);
  });

  it("differs between data folders", async () => {
    const [a, b] = await Promise.all([startEmbeddedPostgres(dataFolder()), startEmbeddedPostgres(dataFolder())]);
    try {
      expect(passwordIn(a)).not.toBe(passwordIn(b));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("replaces the fixed password of a folder made by an older version, keeping its data", async () => {
    const dir = dataFolder();
    await makeLegacy(dir);
    const db = await startEmbeddedPostgres(dir);
    try {
      const password = passwordIn(db);
      expect(password).not.toBe(LEGACY_PASSWORD);
      expect(readFileSync(fileOf(dir), "utf8").trim()).toBe(password);
      expect(statSync(fileOf(dir)).mode & 0o777).toBe(0o600);
      expect(await accepts(db, LEGACY_PASSWORD)).toBe(false);
      expect(await sql(db.url, "SELECT id FROM kept")).toEqual([{ id: 42 }]);
      // The server was sent the password's SCRAM secret, never the password.
      expect(readFileSync(path.join(dir, "postgres.log"), "utf8")).not.toContain(password);
    } finally {
      await db.stop();
    }
  });

  it("opens a folder whose password change was cut short, before or after the server took it", async () => {
    // Killed before ALTER ROLE: a pending password the server does not know yet.
    const before = dataFolder();
    await makeLegacy(before);
    writeFileSync(`${fileOf(before)}.new`, "never-applied\n", { mode: 0o600 });
    const a = await startEmbeddedPostgres(before);
    try {
      expect(passwordIn(a)).not.toBe("never-applied");
      expect(readFileSync(fileOf(before), "utf8").trim()).toBe(passwordIn(a));
      expect(existsSync(`${fileOf(before)}.new`)).toBe(false);
    } finally {
      await a.stop();
    }

    // Killed after ALTER ROLE, before the rename: the pending password is the server's.
    const after = dataFolder();
    const db = await startEmbeddedPostgres(after);
    const password = passwordIn(db);
    await db.stop();
    renameSync(fileOf(after), `${fileOf(after)}.new`);
    const b = await startEmbeddedPostgres(after);
    try {
      expect(passwordIn(b)).toBe(password);
      expect(readFileSync(fileOf(after), "utf8").trim()).toBe(password);
      expect(existsSync(`${fileOf(after)}.new`)).toBe(false);
    } finally {
      await b.stop();
    }
  });
});
