// What the mirror cannot take from the garden as it is (pure). The garden's API server checks
// what it stores, so these come from a broken garden, a proxy in between or a version skew, not
// from users; each is logged with its key and counted (almanac_garden_bad_input_total), and the
// objects that can never be written are skipped so the watch does not stall on them.
import type { GardenObject } from "./list-watch.ts";

export type BadInputReason =
  /** A watch line that is not JSON. */
  | "not-json"
  /** A watch event of a type Kubernetes does not send. */
  | "unknown-event"
  /** An object of another kind than the resource's (kind set and different). */
  | "unknown-kind"
  /** An object without metadata.name (or, of a namespaced resource, without metadata.namespace). */
  | "no-name"
  /** Text PostgreSQL cannot hold: a NUL character, or half of a UTF-16 surrogate pair. */
  | "unwritable-text"
  /** An object whose write fails on its own with a data error (e.g. a uid that is not a UUID). */
  | "unwritable"
  /** A shoot naming a profile the mirror does not have: mirrored all the same, without the profile's columns. */
  | "missing-profile";

export interface ResourceShape {
  /** The kind its objects carry, e.g. "Shoot". */
  readonly kind: string;
  /** Whether its objects live in a namespace. */
  readonly namespaced: boolean;
}

/** How logs name an object: "namespace/name", or the name; "?" for what has none. */
export function objectKeyText(object: GardenObject): string {
  const metadata = object?.metadata;
  const name = typeof metadata?.name === "string" && metadata.name ? metadata.name : "?";
  return typeof metadata?.namespace === "string" && metadata.namespace ? `${metadata.namespace}/${name}` : name;
}

/** Why an object of `shape` can never be mirrored, or undefined when it can. */
export function objectFault(object: GardenObject, shape: ResourceShape): BadInputReason | undefined {
  if (object === null || typeof object !== "object" || Array.isArray(object)) return "no-name";
  if (object.kind !== undefined && object.kind !== shape.kind) return "unknown-kind";
  const metadata = object.metadata;
  if (typeof metadata?.name !== "string" || !metadata.name) return "no-name";
  if (shape.namespaced && (typeof metadata.namespace !== "string" || !metadata.namespace)) return "no-name";
  if (!storableText(object)) return "unwritable-text";
  return undefined;
}

// PostgreSQL's text and jsonb hold no NUL ("\u0000 cannot be converted to text") and no lone
// surrogate ("Unicode low surrogate must follow a high surrogate"), in keys or values.
const storableString = (text: string) => !text.includes("\u0000") && text.isWellFormed();

function storableText(value: unknown): boolean {
  if (typeof value === "string") return storableString(value);
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(storableText);
  for (const [key, inner] of Object.entries(value)) if (!storableString(key) || !storableText(inner)) return false;
  return true;
}

/**
 * Whether a write failed on what it wrote rather than on the database being unavailable: a data
 * exception of PostgreSQL (SQLSTATE class 22: a value its column's type cannot take), as pg or
 * Prisma's driver adapter reports it, or an object shaped so that computing its row throws. Such
 * a write fails the same way every time it is retried.
 */
export function isDataError(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof RangeError) return true;
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  const code = e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.code;
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}

/** The short reason of a data error, for the log (Prisma's message spans several lines). */
export function dataErrorText(error: unknown): string {
  const e = error as { message?: unknown; meta?: { driverAdapterError?: { cause?: { originalMessage?: unknown } } } };
  const text = e?.meta?.driverAdapterError?.cause?.originalMessage ?? e?.message ?? String(error);
  return String(text).trim().split("\n").at(-1) ?? "";
}
