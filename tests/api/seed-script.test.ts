// `npm run seed`: replaces the landscape in the database `npm start` uses, and refuses bad flags.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database.ts";

const script = path.resolve(import.meta.dirname, "../../scripts/seed.ts");
const seed = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, encoding: "utf8" });

describe("npm run seed", () => {
  it("replaces the landscape with N generated shoots and keeps the audit log", async () => {
    const database = await createTestDatabase();
    try {
      const first = seed(["--shoots", "150"], { DATABASE_URL: database.url });
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/Seeded 150 shoots in 4 projects, 6 seeds, 3 cloud profiles/);
      expect(await database.db.shoot.count()).toBe(150);
      const second = seed(["--shoots", "70", "--seed", "7"], { DATABASE_URL: database.url });
      expect(second.status, second.stderr).toBe(0);
      expect(await database.db.shoot.count()).toBe(70);
      expect(await database.db.auditEvent.count({ where: { action: "landscape.seed" } })).toBe(2);
    } finally {
      await database.drop();
    }
  });

  it("refuses a bad --shoots with exit code 2 and says why", () => {
    for (const args of [
      ["--shoots", "0"],
      ["--shoots", "100001"],
      ["--shoots", "ten"],
      ["--colour", "red"],
    ]) {
      const r = seed(args, { DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" });
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/--shoots must be a whole number from 1 to 100000|Unknown option/);
    }
  });
});
