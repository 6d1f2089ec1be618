// The list's JSON is built as bytes row by row: the same bytes as the text joined and encoded,
// whatever characters the rows hold.
import { describe, expect, it } from "vitest";
import { shootListJson } from "./list-shoots.ts";

describe("the shoot list's JSON bytes", () => {
  it("are the UTF-8 of the rows joined into the answer", () => {
    const items = ['{"name":"a"}', '{"message":"rolling — 3/5 nodes"}', '{"note":"👍 ünïcode"}', '{"x":"\\u0000"}'];
    for (const page of [
      { items, total: 4, nextCursor: null },
      { items: items.slice(0, 1), total: 12, nextCursor: "eyJzb3J0IjoibmFtZSJ9" },
      { items: [], total: 0, nextCursor: null },
    ]) {
      const text = `{"items":[${page.items.join(",")}],"total":${page.total},"nextCursor":${JSON.stringify(page.nextCursor)}}`;
      expect(shootListJson(page).equals(Buffer.from(text))).toBe(true);
      expect(JSON.parse(shootListJson(page).toString("utf8"))).toEqual(JSON.parse(text));
    }
  });
});
