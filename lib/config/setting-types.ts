// The kinds of value a setting may take, each a zod schema over the variable's text (trimmed, and
// only when set: an unset or blank variable takes the setting's default) with the words the error
// message and docs/configuration.md use for what is expected. A problem that needs more than
// "expected ..." (which entry of a list is wrong, and why) is a custom issue with that detail.
import { z } from "zod";

export interface SettingType<T> {
  /** What a value must be, completing "expected ...": "a whole number from 1 to 65535". */
  readonly expected: string;
  readonly schema: z.ZodType<T, string>;
}

const named = (unit: string | undefined) => (unit ? `a whole number of ${unit}` : "a whole number");

function range(min: number, max: number | undefined): string {
  if (max === undefined) return `at least ${min}`;
  return `from ${min} to ${max}`;
}

/** A whole number (digits only) from `min` to `max`. */
export function wholeNumber(options: { min: number; max?: number; unit?: string }): SettingType<number> {
  const { min, max = Number.MAX_SAFE_INTEGER, unit } = options;
  return {
    expected: `${named(unit)} ${range(min, options.max)}`,
    schema: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().min(min).max(max)),
  };
}

/** A decimal number (such as 0.05 or 12) from `min` to `max`. */
export function decimal(options: { min: number; max?: number; unit?: string }): SettingType<number> {
  const { min, max = Number.MAX_SAFE_INTEGER, unit } = options;
  return {
    expected: `${unit ? `a number of ${unit}` : "a number"} ${range(min, options.max)}`,
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number)
      .pipe(z.number().min(min).max(max)),
  };
}

const UNIT_MS = { milliseconds: 1, seconds: 1_000, hours: 3_600_000 } as const;

/**
 * A duration written as a number of `unit` (the variable's name says which), read as milliseconds.
 * The range is in `unit`.
 */
export function duration(unit: keyof typeof UNIT_MS, options: { min: number; max?: number }): SettingType<number> {
  const number = decimal({ ...options, unit });
  return { expected: number.expected, schema: number.schema.transform((n) => n * UNIT_MS[unit]) };
}

const ON = ["on", "true", "yes", "1"];
const OFF = ["off", "false", "no", "0"];

/** A switch: on or off (also true/false, yes/no, 1/0), in any case. */
export function onOff(): SettingType<boolean> {
  return {
    expected: '"on" or "off"',
    schema: z
      .string()
      .transform((text) => text.toLowerCase())
      .pipe(z.enum([...ON, ...OFF]))
      .transform((text) => ON.includes(text)),
  };
}

/** One of `values`, in any case. */
export function oneOf<const V extends string>(values: readonly V[]): SettingType<V> {
  return {
    expected: `one of ${values.map((v) => `"${v}"`).join(", ")}`,
    schema: z
      .string()
      .transform((text) => text.toLowerCase())
      .pipe(z.enum(values as [V, ...V[]])),
  };
}

/** Any text (a name, a path, a secret); `minLength` for a secret that must not be guessable. */
export function text(options: { expected: string; minLength?: number; pattern?: RegExp }): SettingType<string> {
  let schema = z.string().min(options.minLength ?? 1);
  if (options.pattern) schema = schema.regex(options.pattern);
  return { expected: options.expected, schema };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `url` is https, or plain http to this machine only (a test issuer). */
export const isHttpsOrLoopback = (url: URL): boolean =>
  url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));

/**
 * An absolute URL with one of `protocols`. `httpsOrLoopback`: plain http only to this machine
 * (a test issuer), since elsewhere codes and tokens would travel in the clear.
 */
export function url(options: { protocols: readonly string[]; httpsOrLoopback?: boolean }): SettingType<string> {
  const names = options.protocols.map((p) => `${p}//`);
  const expected = options.httpsOrLoopback
    ? "an https:// URL (http:// only for localhost)"
    : `a URL starting with ${names.join(" or ")}`;
  return {
    expected,
    schema: z.string().superRefine((value, ctx) => {
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "not a URL" });
        return;
      }
      const allowed = options.httpsOrLoopback ? isHttpsOrLoopback(parsed) : options.protocols.includes(parsed.protocol);
      if (!allowed) ctx.addIssue({ code: "custom", message: `${parsed.protocol}// is not allowed here` });
    }),
  };
}

/** Words separated by spaces or commas. */
export function wordList(expected: string): SettingType<readonly string[]> {
  return { expected, schema: z.string().transform((value) => value.split(/[\s,]+/).filter((w) => w !== "")) };
}

/**
 * A list parsed entry by entry by `entry`, which throws an Error saying what is wrong with one;
 * the issue names the entry. `separator` splits the variable's text.
 */
export function entryList<T>(options: {
  expected: string;
  separator: RegExp | string;
  entry: (entry: string) => T;
  /** Whether an empty entry (two separators in a row) is a mistake rather than nothing. */
  refuseEmpty?: boolean;
}): SettingType<readonly T[]> {
  return {
    expected: options.expected,
    schema: z.string().transform((value, ctx) => {
      const parsed: T[] = [];
      if (value === "") return parsed; // the default: no entries
      for (const entry of value.split(options.separator).map((e) => e.trim())) {
        if (entry === "") {
          if (!options.refuseEmpty) continue;
          ctx.addIssue({ code: "custom", message: "an empty entry" });
          return z.NEVER;
        }
        try {
          parsed.push(options.entry(entry));
        } catch (error) {
          ctx.addIssue({ code: "custom", message: `entry "${entry}": ${(error as Error).message}` });
          return z.NEVER;
        }
      }
      return parsed;
    }),
  };
}
