// JSON answers made of stored JSON texts (the fleet list's rows): `head`, the texts separated by
// commas, `tail`, encoded as UTF-8 straight into one buffer of the answer's size. Joined as text
// first, one text with a character beyond Latin-1 (an em dash in a condition's message) makes the
// whole answer a two-byte string, and building and encoding that took several times as long
// (~2 ms against ~0.6 ms for a 100 KB page); a buffer per text joined afterwards copied every
// byte twice more, garbage a loaded web process then had to collect. A text may come in pieces
// (a stored row and what the answer adds to it), written one after another: joined as text first,
// each would be copied into a new string before it is encoded.

const COMMA = ",".charCodeAt(0);

/** The UTF-8 bytes of `head + texts.join(",") + tail`, a text given as pieces joined without a separator. */
export function joinedJson(
  head: string,
  texts: readonly (string | readonly string[])[],
  tail: string,
): Buffer<ArrayBuffer> {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(texts.length - 1, 0);
  for (const text of texts) {
    if (typeof text === "string") size += Buffer.byteLength(text);
    else for (const piece of text) size += Buffer.byteLength(piece);
  }
  const json = Buffer.allocUnsafe(size);
  let at = json.write(head, 0);
  texts.forEach((text, index) => {
    if (index > 0) at = json.writeUInt8(COMMA, at);
    if (typeof text === "string") at += json.write(text, at);
    else for (const piece of text) at += json.write(piece, at);
  });
  at += json.write(tail, at);
  return json.subarray(0, at) as Buffer<ArrayBuffer>;
}
