// The exports: GET /api/v1/shoots/export, /api/v1/forecast/export and /api/v1/audit/export take
// the list's own filters plus `format`, and answer every matching row as one download (not a
// page): CSV (RFC 4180, a header line, CRLF; text a spreadsheet would run as a formula starts
// with an apostrophe) or a JSON array of the rows the list endpoint answers. The calendars: GET
// /api/v1/namespaces/{ns}/shoots/{name}/calendar.ics and /api/v1/namespaces/{ns}/calendar.ics,
// the coming maintenance windows and forced updates as iCalendar (RFC 5545).

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8; header=present",
  json: "application/json",
};

/** How far ahead the calendars look. */
export const CALENDAR_DAYS = 30;
