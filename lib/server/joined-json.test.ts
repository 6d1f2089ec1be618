// Stored JSON texts joined as bytes: the same bytes as the text joined and encoded, whatever
// characters the texts hold.
import { describe, expect, it } from "vitest";
import { joinedJson } from "./joined-json.ts";

describe("joined JSON bytes", () => {
  it("are the UTF-8 of the texts joined between head and tail", () => {
    const texts = ['{"name":"a"}', '{"message":"rolling — 3/5 nodes"}', '{"note":"👍 ünïcode"}', '{"x":"\\u0000"}'];
    for (const [head, items, tail] of [
      ['{"items":[', texts, '],"total":4,"nextCursor":null}'],
      ['{"items":[', texts.slice(1, 2), '],"total":12,"nextCursor":"eyJzb3J0IjoibmFtZSJ9"}'],
      ['{"items":[', [], '],"total":0,"nextCursor":null}'],
      ["[", texts.slice(2), "]"],
    ] as const) {
      const text = `${head}${items.join(",")}${tail}`;
      expect(joinedJson(head, items, tail).equals(Buffer.from(text))).toBe(true);
      expect(JSON.parse(joinedJson(head, items, tail).toString("utf8"))).toEqual(JSON.parse(text));
    }
  });

  it("write a text given in pieces as the pieces joined", () => {
    const pieces = [
      ['{"name":"a"', ',"nextMaintenance":null}'],
      ['{"message":"rolling — 3/5 nodes"', ',"nextMaintenance":{"at":"2026-11-28T03:00:00.000Z"}}'],
      ["", '{"note":"👍"}'],
    ] as const;
    const tail = '],"total":4,"nextCursor":null}';
    const text = `{"items":[${pieces.map((p) => p.join("")).join(",")},{"x":1}${tail}`;
    expect(joinedJson('{"items":[', [...pieces, '{"x":1}'], tail).equals(Buffer.from(text))).toBe(true);
  });
});
