// CSV as RFC 4180 has it: fields separated by commas, records ended by CRLF, a field holding a
// comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled. Exports are
// opened in spreadsheets, which run a cell that starts with = + - or @ as a formula, and some
// also one whose formula follows a leading TAB or CR (a shoot's name cannot, but an audit actor or
// a label's text could): such text gets a leading apostrophe, which spreadsheets show as text
// (OWASP's advice on CSV injection). Numbers and booleans are
// written as they are.

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: empty for null and undefined, text guarded against formulas, quoted when needed. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ended by CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** A table's columns: the header and how each row gives its value. */
export interface CsvColumn<T> {
  readonly header: string;
  readonly value: (row: T) => CsvValue;
}

export const csvHeader = <T>(columns: readonly CsvColumn<T>[]) => csvRecord(columns.map((c) => c.header));

export const csvRow = <T>(columns: readonly CsvColumn<T>[], row: T) => csvRecord(columns.map((c) => c.value(row)));
