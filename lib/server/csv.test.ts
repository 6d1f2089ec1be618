import { describe, expect, it } from "vitest";
import { csvField, csvHeader, csvRecord, csvRow } from "./csv.ts";

describe("csvField", () => {
  it("writes plain text, numbers and booleans as they are, nothing for null", () => {
    expect(csvField("cluster-1")).toBe("cluster-1");
    expect(csvField(42)).toBe("42");
    expect(csvField(-3)).toBe("-3");
    expect(csvField(true)).toBe("true");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
  });

  it("quotes commas, quotes and line breaks, doubling the quotes (RFC 4180)", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("puts an apostrophe before text a spreadsheet would run as a formula", () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("a=b")).toBe("a=b");
  });

  it("guards a formula behind a leading TAB or CR too", () => {
    expect(csvField("\t=1+1")).toBe("'\t=1+1");
    expect(csvField("\r=1+1")).toBe(`"'\r=1+1"`);
    expect(csvField("\tplain")).toBe("'\tplain");
  });
});

describe("csvRecord", () => {
  it("joins fields with commas and ends with CRLF", () => {
    expect(csvRecord(["a", 1, null, "b,c"])).toBe('a,1,,"b,c"\r\n');
  });

  it("writes a header and rows from columns", () => {
    const columns = [
      { header: "name", value: (r: { n: string; v: number }) => r.n },
      { header: "value", value: (r: { n: string; v: number }) => r.v },
    ];
    expect(csvHeader(columns) + csvRow(columns, { n: "x", v: 2 })).toBe("name,value\r\nx,2\r\n");
  });
});
