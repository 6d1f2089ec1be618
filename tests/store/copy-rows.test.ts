// The seed writes shoots, inventories and past runs through COPY (lib/db/copy-rows.ts); the rows
// must be exactly those the INSERTs of column arrays write, awkward characters included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionOf } from "../../lib/db/client.ts";
import { copyText } from "../../lib/db/copy-rows.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { inventoryFor } from "../../lib/demo/inventory.ts";
import { cloudProfileNameOf } from "../../lib/gardener/types.ts";
import { copyInventories, insertInventories } from "../../lib/store/inventories.ts";
import { copyMaintenanceRuns, insertMaintenanceRuns } from "../../lib/store/maintenance-runs.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { copyShoots, insertShoots } from "../../lib/store/shoots.ts";
import type { Tx } from "../../lib/db/client.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const AWKWARD = 'tab\there, line\nbreak, return\r, back\\slash, "quotes", \\N, \\t literal, ünïcødé 🌱';

let database: TestDatabase;
const now = Date.parse("2026-11-24T12:00:00Z");
const landscape = generateLandscape({ now, shoots: 40 });
const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
const writes = landscape.shoots.map((given, i) => {
  const shoot =
    i === 0
      ? { ...given, metadata: { ...given.metadata, annotations: { note: AWKWARD }, labels: { [AWKWARD]: "x" } } }
      : given;
  return {
    shoot,
    columns: shootColumns(shoot, profiles.get(cloudProfileNameOf(shoot) ?? ""), now, 1, undefined),
    inventory: inventoryFor(shoot, now),
  };
});
const inventories = writes.map((w) => ({
  namespace: w.shoot.metadata.namespace ?? "",
  name: w.shoot.metadata.name,
  inventory: w.inventory,
}));
const runs = landscape.maintenanceHistory.map((r, i) => ({
  namespace: r.namespace,
  name: r.name,
  trigger: r.trigger,
  state: r.state,
  startedAt: new Date(r.startedAt),
  finishedAt: new Date(r.finishedAt),
  changes: r.changes,
  description: i === 0 ? AWKWARD : r.description,
  ...(r.failureReason ? { failureReason: r.failureReason } : {}),
}));

class RolledBack {
  readonly rows: unknown;
  constructor(rows: unknown) {
    this.rows = rows;
  }
}

/** What `write` leaves in the tables (as JSON, without the columns only a clock or chance sets), rolled back after. */
async function rowsAfter(write: (tx: Tx) => Promise<unknown>): Promise<unknown> {
  try {
    await database.db.$transaction(async (tx) => {
      await tx.shoot.deleteMany();
      await write(tx);
      throw new RolledBack({
        shoots: await tx.$queryRaw`SELECT to_jsonb(s) - 'updated_at' AS row FROM shoots s ORDER BY namespace, name`,
        inventories:
          await tx.$queryRaw`SELECT to_jsonb(i) - 'updated_at' - 'created_at' AS row FROM shoot_inventories i ORDER BY namespace, name`,
        // Kept by statement triggers on shoots (their transition tables), which COPY fires too.
        counts: await tx.$queryRaw`SELECT namespace, shoots FROM shoot_counts WHERE shoots <> 0 ORDER BY namespace`,
        usage:
          await tx.$queryRaw`SELECT to_jsonb(u) AS row FROM cloud_profile_usage_counts u ORDER BY cloud_profile, namespace, part, key`,
        runs: await tx.$queryRaw`SELECT to_jsonb(r) - 'id' AS row FROM maintenance_runs r ORDER BY namespace, name, started_at, description`,
      });
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.rows;
    throw error;
  }
  throw new Error("not rolled back");
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe("the seed's COPY", () => {
  it("writes the same shoots, inventories and runs as the INSERTs of column arrays", async () => {
    const inserted = await rowsAfter(async (tx) => {
      await insertShoots(tx, writes);
      await insertInventories(tx, inventories);
      await insertMaintenanceRuns(tx, runs);
    });
    const copied = await rowsAfter(async (tx) => {
      const connection = await connectionOf(database.db, tx);
      await copyShoots(connection, writes);
      await copyInventories(connection, inventories);
      await copyMaintenanceRuns(connection, runs);
    });
    expect((inserted as { shoots: unknown[] }).shoots).toHaveLength(40);
    expect((copied as { counts: { shoots: number }[] }).counts.reduce((n, c) => n + c.shoots, 0)).toBe(40);
    // The awkward text arrived whole (as the annotation and as a label's key), and the description.
    expect(JSON.stringify(copied).split(JSON.stringify(AWKWARD).slice(1, -1))).toHaveLength(4);
    expect(copied).toEqual(inserted);
  });

  it("fails its transaction when a row does not fit, and leaves nothing behind", async () => {
    const bad = {
      ...writes[1],
      shoot: { ...writes[1].shoot, metadata: { ...writes[1].shoot.metadata, uid: "not-a-uuid" } },
    };
    await expect(
      database.db.$transaction(async (tx) => {
        await copyShoots(await connectionOf(database.db, tx), [writes[0], bad]);
      }),
    ).rejects.toThrow(/uuid/);
    expect(await database.db.shoot.count()).toBe(0);
  });
});

describe("copyText", () => {
  it("writes NULL as \\N, times as ISO text and escapes only backslash, tab, line feed and carriage return", () => {
    expect(copyText(null)).toBe("\\N");
    expect(copyText(new Date(now))).toBe("2026-11-24T12:00:00.000Z");
    expect(copyText(7)).toBe("7");
    expect(copyText(false)).toBe("false");
    expect(copyText('a\\b\tc\nd\re "f"')).toBe('a\\\\b\\tc\\nd\\re "f"');
  });
});
