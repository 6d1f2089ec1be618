// Text that anyone could have typed (a failed sign-in's "email", a label) made safe to show and
// store: control characters (C0, DEL, C1: CR/LF would forge lines in logs and exports) and the
// Unicode controls that reorder or hide what is shown (bidi embeddings, overrides and isolates,
// the direction marks, zero-width characters, the BOM, the line and paragraph separators) are
// removed. HTML and formulas are left as text: the pages escape HTML, CSV guards formulas.
const UNSAFE = /[\p{Cc}\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

export const plainText = (text: string): string => text.replace(UNSAFE, "");

/** Whether `text` is free of what plainText removes. */
export const isPlainText = (text: string): boolean => text.replace(UNSAFE, "") === text;

/** `value` with plainText applied to every string in it (arrays and objects walked; keys too). */
export function plainValues(value: unknown): unknown {
  if (typeof value === "string") return plainText(value);
  if (Array.isArray(value)) return value.map(plainValues);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [plainText(k), plainValues(v)]));
  return value;
}
