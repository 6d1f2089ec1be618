// Many rows into one table through COPY ... FROM STDIN: PostgreSQL's fastest way in. An INSERT of
// column arrays makes the client escape every value into an array literal and the server parse it
// back; COPY's text format only escapes backslashes and line breaks, and the server reads the rows
// while the client is still writing them.
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

export type CopyValue = string | number | boolean | Date | null;

/** A value in COPY's text format: \N for NULL, times as ISO text, the format's four specials escaped. */
export function copyText(value: CopyValue): string {
  if (value === null) return "\\N";
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  // Most values, JSON documents above all, hold none of them: looking is cheaper than replacing
  // (JSON.stringify writes tabs and line breaks as \t and \n, so its backslashes are the usual one).
  let escaped = text.includes("\\") ? text.replaceAll("\\", "\\\\") : text;
  if (escaped.includes("\t")) escaped = escaped.replaceAll("\t", "\\t");
  if (escaped.includes("\n")) escaped = escaped.replaceAll("\n", "\\n");
  if (escaped.includes("\r")) escaped = escaped.replaceAll("\r", "\\r");
  return escaped;
}

// The stream is written in pieces of about this many characters: fewer, larger writes.
const PIECE = 1 << 20;

/** Writes `rows` (values in `columns`' order) into `table` on `client`; answers how many. */
export async function copyRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
): Promise<number> {
  const target = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  const finished = new Promise<void>((resolve, reject) => {
    target.on("finish", resolve);
    target.on("error", reject);
  });
  let piece = "";
  let count = 0;
  try {
    for (const row of rows) {
      if (row.length !== columns.length)
        throw new Error(`a row for ${table} has ${row.length} values, not ${columns.length}`);
      piece += `${row.map(copyText).join("\t")}\n`;
      count += 1;
      if (piece.length >= PIECE) {
        const more = target.write(piece);
        piece = "";
        if (!more) await new Promise((resolve) => target.once("drain", resolve));
      }
    }
    target.end(piece);
  } catch (error) {
    // Ends the COPY with an error, so the connection is usable (and its transaction failed).
    target.destroy(error as Error);
    await finished.catch(() => {});
    throw error;
  }
  await finished;
  return count;
}
