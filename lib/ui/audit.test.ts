import { describe, expect, it } from "vitest";
import { auditApiPath, auditSearch, hasAuditFilters, parseAuditFilters } from "./audit-filters.ts";
import { actionMeta, formatAuditValue, fullAuditValue } from "./audit-format.ts";

describe("audit filters", () => {
  it("read the URL, dropping empty values and dates that are not days", () => {
    expect(
      parseAuditFilters(
        new URLSearchParams(
          "actor=alice&action=shoot.update&name=&since=2026-11-01&until=yesterday&namespace=garden-dev",
        ),
      ),
    ).toEqual({ actor: "alice", action: "shoot.update", since: "2026-11-01", namespace: "garden-dev" });
    expect(hasAuditFilters(parseAuditFilters(new URLSearchParams("")))).toBe(false);
  });

  it("keep a bulk action's id, and drop one that is not an id (the API would refuse it)", () => {
    const id = "0b6f3a52-6c1e-4b7e-9d7c-2f7f1c0a9e11";
    expect(parseAuditFilters(new URLSearchParams(`bulkAction=${id}`))).toEqual({ bulkAction: id });
    expect(parseAuditFilters(new URLSearchParams("bulkAction=not-an-id"))).toEqual({});
    expect(auditApiPath({ bulkAction: id }, 50)).toBe(`/audit?bulkAction=${id}&limit=50`);
  });

  it("keep an update run's id, and drop one that is not an id", () => {
    const id = "5a1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
    expect(parseAuditFilters(new URLSearchParams(`updateRun=${id}`))).toEqual({ updateRun: id });
    expect(parseAuditFilters(new URLSearchParams("updateRun=run-1"))).toEqual({});
    expect(auditApiPath({ updateRun: id }, 50)).toBe(`/audit?updateRun=${id}&limit=50`);
  });

  it("write the URL in a stable order", () => {
    expect(auditSearch({ name: "dns-prod", actor: "bob" })).toBe("actor=bob&name=dns-prod");
  });

  it("ask the API for whole days, the last one included, a page at a time", () => {
    expect(auditApiPath({ since: "2026-11-01", until: "2026-11-30", action: "shoot.update" }, 50)).toBe(
      "/audit?action=shoot.update&since=2026-11-01&until=2026-12-01&limit=50",
    );
    expect(auditApiPath({}, 50, "1234")).toBe("/audit?limit=50&cursor=1234");
    expect(auditApiPath({ until: "2026-12-31" }, 10)).toBe("/audit?until=2027-01-01&limit=10");
  });
});

describe("audit format", () => {
  it("names known actions in words and keeps unknown ones as they are", () => {
    expect(actionMeta("shoot.migrate.failed")).toEqual({ word: "Migration failed", tone: "red" });
    expect(actionMeta("shoot.something-new")).toEqual({ word: "shoot.something-new", tone: "grey" });
  });

  it("shortens values for a table cell and keeps them whole for a tooltip", () => {
    expect(formatAuditValue(null)).toBe("none");
    expect(formatAuditValue(undefined)).toBe("none");
    expect(formatAuditValue(false)).toBe("false");
    expect(formatAuditValue("1.31.10")).toBe("1.31.10");
    expect(formatAuditValue({ begin: "220000+0000", end: "230000+0000" })).toBe(
      '{"begin":"220000+0000","end":"230000+0000"}',
    );
    expect(formatAuditValue("x".repeat(100), 10)).toBe(`${"x".repeat(9)}…`);
    expect(fullAuditValue({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
