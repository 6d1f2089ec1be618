// The garden lease fences without blocking: the holder renews while its own mirror writes are
// open (they hold FOR KEY SHARE on the lease row, renewal updates no key column), and a takeover
// waits for the old holder's writes in flight, after which the old holder writes nothing more.
import { afterAll, beforeAll, expect, test } from "vitest";
import { stillHolds, takeLease } from "../../lib/store/garden-lease.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

/** Resolves with "blocked" when `work` has not ended after `ms` (a lock wait, not a speed check). */
const settledWithin = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, new Promise<"blocked">((r) => setTimeout(() => r("blocked"), ms).unref())]);

test("the holder renews while one of its mirror writes is open", async () => {
  expect(await takeLease(database.db, "renewal", "a", 60_000)).toBe(true);
  let release: () => void = () => {};
  const holding = new Promise<void>((r) => (release = r));
  let fenced: () => void = () => {};
  const inside = new Promise<void>((r) => (fenced = r));
  const writer = database.db.$transaction(
    async (tx) => {
      expect(await stillHolds(tx, "renewal", "a")).toBe(true);
      fenced();
      await holding;
    },
    { timeout: 60_000 },
  );
  await inside;
  // Before the fix the renewal waited for the writer (FOR SHARE) and this answered "blocked".
  const renewal = await settledWithin(takeLease(database.db, "renewal", "a", 60_000), 10_000);
  release();
  await writer;
  expect(renewal).toBe(true);
});

test("a takeover waits for the old holder's write in flight; then the old holder is refused", async () => {
  expect(await takeLease(database.db, "takeover", "old", 300)).toBe(true);
  const order: string[] = [];
  let release: () => void = () => {};
  const holding = new Promise<void>((r) => (release = r));
  let fenced: () => void = () => {};
  const inside = new Promise<void>((r) => (fenced = r));
  const writer = database.db.$transaction(
    async (tx) => {
      expect(await stillHolds(tx, "takeover", "old")).toBe(true);
      fenced();
      await holding;
      order.push("old holder's write committed");
    },
    { timeout: 60_000 },
  );
  await inside;
  await new Promise((r) => setTimeout(r, 400)); // the lease runs out while the write is open
  const takeover = takeLease(database.db, "takeover", "new", 60_000).then((taken) => {
    order.push("taken over");
    return taken;
  });
  expect(await settledWithin(takeover, 500)).toBe("blocked");
  release();
  await writer;
  expect(await takeover).toBe(true);
  expect(order).toEqual(["old holder's write committed", "taken over"]);
  expect(await database.db.$transaction((tx) => stillHolds(tx, "takeover", "old"))).toBe(false);
  // The old holder's renewal does not take it back either.
  expect(await takeLease(database.db, "takeover", "old", 300)).toBe(false);
});
