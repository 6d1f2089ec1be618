import { describe, expect, it } from "vitest";
import { madeAhead } from "./made-ahead.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function collect<R>(chunks: AsyncGenerator<R[]>): Promise<R[][]> {
  const all: R[][] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe("madeAhead", () => {
  it("hands over every item made, in order, in chunks of the size asked (the last one shorter)", async () => {
    const chunks = await collect(madeAhead(range(10), 4, (i) => i * 10));
    expect(chunks).toEqual([
      [0, 10, 20, 30],
      [40, 50, 60, 70],
      [80, 90],
    ]);
    expect(await collect(madeAhead(range(8), 4, (i) => i))).toHaveLength(2);
    expect(await collect(madeAhead([], 4, (i) => i))).toEqual([]);
  });

  it("makes the next chunk while the caller awaits something else with the current one", async () => {
    const made: number[] = [];
    const chunks = madeAhead(range(6), 3, (i) => (made.push(i), i));
    const first = await chunks.next();
    expect(first.value).toEqual([0, 1, 2]);
    // The caller's own I/O (a COPY): the event loop is free, so the next chunk gets made meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(made).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await chunks.next()).value).toEqual([3, 4, 5]);
    expect((await chunks.next()).done).toBe(true);
  });

  it("makes a long chunk in slices, so that timers and I/O are not held off until it is done", async () => {
    let made = 0;
    const busy = (i: number) => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      made++;
      return i;
    };
    const chunks = madeAhead(range(60), 30, busy);
    await chunks.next();
    // The second chunk (some 30 ms of work) is being made: a timer due in 1 ms fires well before it ends.
    const madeWhenTimerFired = await new Promise<number>((resolve) => setTimeout(() => resolve(made), 1));
    expect(madeWhenTimerFired).toBeLessThan(60);
    await chunks.return(undefined);
  });

  it("throws an error of the making where its chunk would have been handed over, and none before", async () => {
    const chunks = madeAhead(range(6), 3, (i) => {
      if (i === 4) throw new Error("bad item 4");
      return i;
    });
    expect((await chunks.next()).value).toEqual([0, 1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 10)); // no unhandled rejection meanwhile
    await expect(chunks.next()).rejects.toThrow("bad item 4");
  });

  it("stops taking items when the caller stops early", async () => {
    let taken = 0;
    function* items() {
      for (let i = 0; i < 1_000; i++) {
        taken++;
        yield i;
      }
    }
    const chunks = madeAhead(items(), 10, (i) => i);
    for await (const chunk of chunks) {
      expect(chunk).toHaveLength(10);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(taken).toBeLessThanOrEqual(20);
  });
});
