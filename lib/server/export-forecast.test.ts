import { describe, expect, it } from "vitest";
import type { ForecastItem } from "../api/forecast.ts";
import { jsonPieces } from "./export-forecast.ts";

async function* pagesOf(pages: readonly (readonly unknown[])[]) {
  for (const page of pages) yield page as readonly ForecastItem[];
}

async function text(pieces: AsyncIterable<string>) {
  let all = "";
  for await (const piece of pieces) all += piece;
  return all;
}

describe("the forecast's JSON export written a page at a time", () => {
  const item = (name: string) => ({ name, window: { begin: "b", end: "e" }, risk: { causes: ["x", "y"] } });

  it("is the text JSON.stringify(items, null, 1) writes, and a line end", async () => {
    const pages = [[item("a"), item("b")], [], [item("c")]];
    expect(await text(jsonPieces(pagesOf(pages)))).toBe(`${JSON.stringify(pages.flat(), null, 1)}\n`);
  });

  it("is an empty array when there are no items", async () => {
    expect(await text(jsonPieces(pagesOf([[]])))).toBe(`${JSON.stringify([], null, 1)}\n`);
    expect(await text(jsonPieces(pagesOf([])))).toBe("[]\n");
  });
});
