// The event stream names only the changes its caller may see; "everything changed" reaches all.
import { describe, expect, it } from "vitest";
import { noteLocalChange } from "../db/change-feed.ts";
import { changeStream } from "./change-stream.ts";

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!pattern.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return text;
}

describe("the change stream", () => {
  it("leaves out changes the caller may not see, and passes 'everything changed'", async () => {
    const controller = new AbortController();
    const stream = changeStream(controller.signal, (c) => c.namespace === "garden-mine");
    const reader = stream.getReader();
    try {
      await readUntil(reader, /event: ready/);
      noteLocalChange({ kind: "Shoot", namespace: "garden-other", name: "theirs" });
      noteLocalChange({ kind: "Shoot", namespace: "garden-mine", name: "mine" });
      const first = await readUntil(reader, /event: change\ndata: .*\n\n/);
      expect(first).toContain('"name":"mine"');
      expect(first).not.toContain("theirs");
      noteLocalChange({ kind: "*" });
      expect(await readUntil(reader, /"kind":"\*"/)).toContain('{"changes":[{"kind":"*"}]}');
    } finally {
      controller.abort();
    }
  });

  it("says everything changed when asked for what it cannot tell (not listening to the database)", async () => {
    const controller = new AbortController();
    const reader = changeStream(controller.signal, () => true, Date.now() - 1_000).getReader();
    try {
      expect(await readUntil(reader, /event: change\ndata: .*\n\n/)).toContain('{"changes":[{"kind":"*"}]}');
    } finally {
      controller.abort();
    }
  });
});
