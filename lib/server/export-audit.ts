// GET /api/v1/audit/export?format=csv|json&<the log's filters>: every event the filters select,
// newest first, for what the caller may read (the same scope as the log: a caller without a
// landscape-wide role gets the events on their projects' namespaces). Read by id a page at a time
// and written as each page arrives.
import type { AuditEvent } from "../api/audit.ts";
import type { Db } from "../db/client.ts";
import { listAuditEvents } from "../store/audit.ts";
import type { z } from "zod";
import type { exportAuditParams } from "../api/operations/audit.ts";
import { type CsvColumn, csvHeader, csvRow } from "./csv.ts";
import { type Export, fileDay } from "./export-file.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";

const EXPORT_PAGE = 1_000;

const value = (v: unknown) => (v === undefined || v === null ? "(none)" : JSON.stringify(v));

export const AUDIT_COLUMNS: readonly CsvColumn<AuditEvent>[] = [
  { header: "id", value: (e) => e.id },
  { header: "at", value: (e) => e.at },
  { header: "actor", value: (e) => e.actor },
  { header: "action", value: (e) => e.action },
  { header: "kind", value: (e) => e.target.kind },
  { header: "namespace", value: (e) => e.target.namespace },
  { header: "name", value: (e) => e.target.name },
  {
    header: "changes",
    value: (e) => e.changes.map((c) => `${c.field}: ${value(c.before)} -> ${value(c.after)}`).join("; "),
  },
  { header: "request_id", value: (e) => e.requestId },
];

export async function exportAudit(
  db: Db,
  query: z.output<typeof exportAuditParams>,
  scope: FleetScope,
  now: number,
): Promise<Export> {
  const { format, ...filter } = query;
  await refuseUnreadable(db, scope, filter);
  const read = (beforeId?: bigint) =>
    listAuditEvents(db, {
      ...filter,
      namespaces: scopedNamespaces(scope),
      limit: EXPORT_PAGE,
      ...(beforeId !== undefined ? { beforeId } : {}),
    });
  const first = await read();
  async function* pieces() {
    let page = first;
    let written = 0;
    yield format === "csv" ? csvHeader(AUDIT_COLUMNS) : "[";
    for (;;) {
      if (format === "csv") yield page.map((e) => csvRow(AUDIT_COLUMNS, e)).join("");
      else if (page.length > 0) yield `${written > 0 ? "," : ""}\n${page.map((e) => JSON.stringify(e)).join(",\n")}`;
      written += page.length;
      if (page.length < EXPORT_PAGE) break;
      page = await read(BigInt(page.at(-1)!.id));
    }
    if (format === "json") yield "\n]\n";
  }
  return { filename: `almanac-audit-${fileDay(now)}.${format}`, format, pieces: pieces() };
}
