import { describe, expect, it } from "vitest";
import { isPlainText, plainText } from "./plain-text.ts";

describe("text made safe to show and store", () => {
  it("drops control characters and the Unicode controls that reorder text", () => {
    expect(plainText("a\r\nb\tc\u0000d\u007fe\u0085f")).toBe("abcdef");
    expect(plainText("admin\u202e@example.com")).toBe("admin@example.com");
    expect(plainText("\u2066x\u2069\u200f\u200b\ufeffy")).toBe("xy");
  });

  it("keeps ordinary text, HTML and other scripts as they are", () => {
    for (const text of ["Jörg <b>Müller</b>", "=1+1", "名前", "שלום"]) {
      expect(plainText(text)).toBe(text);
      expect(isPlainText(text)).toBe(true);
    }
    expect(isPlainText("a\nb")).toBe(false);
  });
});
