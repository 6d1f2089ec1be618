// The log's lines: a request's facts on every line written while it is served (and on no other),
// and no password or token in them, whichever way the text reaches the logger.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { loggerTo } from "./logger.ts";
import { setActor, withRequest } from "./request-context.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: loggerTo(destination, "debug") };
}

describe("the logger", () => {
  it("puts the request's id and actor on the lines written while it is served, and only on those", async () => {
    const { lines, log } = capture();
    log.info("before");
    await withRequest("req-1", async () => {
      log.debug("identifying");
      setActor("ops@example.com");
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.info({ status: 200 }, "request");
    });
    await withRequest("req-2", async () => log.warn("other"));
    log.info("after");
    expect(lines.map(({ msg, requestId, actor }) => ({ msg, requestId, actor }))).toEqual([
      { msg: "before", requestId: undefined, actor: undefined },
      { msg: "identifying", requestId: "req-1", actor: "anonymous" },
      { msg: "request", requestId: "req-1", actor: "ops@example.com" },
      { msg: "other", requestId: "req-2", actor: "anonymous" },
      { msg: "after", requestId: undefined, actor: undefined },
    ]);
    expect(lines[2]).toMatchObject({ level: "info", status: 200 });
  });

  it("leaves passwords and tokens out of messages, fields and errors", () => {
    const { lines, log } = capture();
    log.error("connect to postgresql://almanac:hunter2@db:5432/almanac failed");
    log.warn({ url: "/api/v1/shoots?token=s3cret-value", header: "Bearer abc.def-ghi" }, "refused");
    log.error({ err: new Error("postgresql://almanac:hunter2@db/almanac: refused") }, "failed");
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter2|s3cret-value|abc\.def-ghi/);
    expect(lines[0].msg).toBe("connect to postgresql://almanac:***@db:5432/almanac failed");
    expect(lines[1]).toMatchObject({ url: "/api/v1/shoots?token=***", header: "Bearer ***" });
    expect((lines[2].err as { message: string }).message).toBe("postgresql://almanac:***@db/almanac: refused");
  });
});
