// The log's batches: lines logged in one turn are written as one text, in order, and none is
// lost when the process stops cleanly, however soon after logging it stops.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { batchedDestination } from "./batched-destination.ts";

const root = path.resolve(import.meta.dirname, "../..");

describe("the batched log destination", () => {
  it("writes the lines logged in one turn of the event loop as one text, in order, at its end", async () => {
    const writes: string[] = [];
    const destination = batchedDestination((text) => writes.push(text));
    destination.write("one\n");
    destination.write("two\n");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    destination.write("three\n");
    destination.flush();
    expect(writes).toEqual(["one\ntwo\n", "three\n"]);
  });

  it("writes at once when the pending text grows large", () => {
    const writes: string[] = [];
    const destination = batchedDestination((text) => writes.push(text), 10);
    destination.write("12345\n");
    destination.write("67890\n");
    destination.write("x\n");
    expect(writes).toEqual(["12345\n67890\n"]);
    destination.flush();
    expect(writes).toEqual(["12345\n67890\n", "x\n"]);
  });

  it("writes each line at once after its end", () => {
    const writes: string[] = [];
    const destination = batchedDestination((text) => writes.push(text));
    destination.write("pending\n");
    destination.end();
    destination.write("late\n");
    expect(writes).toEqual(["pending\n", "late\n"]);
  });

  it("loses no line of the process's logger when the process exits right after logging", () => {
    // The process's own logger (JSON lines to stdout), 1,999 lines, then process.exit at once:
    // the end of the loop's turn never comes, so only the exit's flush can write them; and the
    // last line is logged by an exit handler of its own, after the logger's.
    const script = `
      const { logger } = await import(${JSON.stringify(path.join(root, "lib/observability/logger.ts"))});
      for (let i = 0; i < 1999; i++) logger().info({ i }, "line");
      process.on("exit", () => logger().info({ i: 1999 }, "line"));
      process.exit(0);`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, ALMANAC_LOG_FORMAT: "json", ALMANAC_LOG_LEVEL: "info" },
      encoding: "utf8",
    });
    expect(child.status).toBe(0);
    const numbers = child.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
