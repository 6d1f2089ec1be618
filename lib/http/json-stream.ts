// An answer of JSON text sent piece by piece as it is made (the forecast's every item), rather
// than held whole in memory first.
import { textStream } from "./download.ts";

/** `pieces` as an application/json answer; the first should be made before (errors answer as problems). */
export function jsonStream(pieces: AsyncIterator<string>, label: string): Response {
  return new Response(textStream(pieces, label), { headers: { "content-type": "application/json" } });
}
