// One setting: the environment variable that holds it, what kind of value it takes, its default
// and one line of meaning (docs/configuration.md is generated from these). Its schema reads the
// variable's text: unset or blank takes the default; a value that does not fit is an issue that
// names nothing but the detail (the loader adds the variable, its value and what is expected).
import { z } from "zod";
import type { SettingType } from "./setting-types.ts";

/** Who the setting is for: operators, or only the test suite or the benchmarks. */
export type Audience = "operators" | "tests";

export interface Setting<T> {
  readonly env: string;
  readonly meaning: string;
  /** What a value must be, completing "expected ...". */
  readonly expected: string;
  /** The default as the docs show it; undefined: unset means none. */
  readonly defaultText: string | undefined;
  /** Whether the value is a secret: a message shows only that it is set, never the value. */
  readonly secret: boolean;
  readonly audience: Audience;
  readonly schema: z.ZodType<T, string | undefined>;
}

interface Options {
  readonly meaning: string;
  readonly secret?: boolean;
  readonly audience?: Audience;
}

/** A default computed when the setting is read (the machine's CPUs, the project's folder). */
export interface Computed<T> {
  readonly text: string;
  readonly value: () => T;
}

function build<T>(env: string, type: SettingType<T>, options: Options, fallback: Computed<T> | string | undefined) {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx): T | undefined => {
      const set = raw?.trim() ? raw.trim() : undefined;
      const text = set ?? (typeof fallback === "string" ? fallback : undefined);
      if (text === undefined) return typeof fallback === "object" ? fallback.value() : undefined;
      const parsed = type.schema.safeParse(text);
      if (parsed.success) return parsed.data;
      // Only our own words say more than "expected ..."; zod's ("Invalid input") would not.
      const detail = parsed.error.issues.find((issue) => issue.code === "custom")?.message;
      ctx.addIssue({ code: "custom", message: detail ?? "not as expected", params: { detail } });
      return z.NEVER;
    });
  return {
    env,
    meaning: options.meaning,
    expected: type.expected,
    defaultText: typeof fallback === "object" ? fallback.text : fallback,
    secret: options.secret ?? false,
    audience: options.audience ?? "operators",
    schema,
  };
}

/** A setting whose default is `defaultValue`, written as the variable would be. */
export function setting<T>(env: string, type: SettingType<T>, options: Options & { default: string }): Setting<T>;
/** A setting whose default is computed when it is read. */
export function setting<T>(env: string, type: SettingType<T>, options: Options & { default: Computed<T> }): Setting<T>;
/** A setting without a default: undefined while unset. */
export function setting<T>(env: string, type: SettingType<T>, options: Options): Setting<T | undefined>;
export function setting<T>(
  env: string,
  type: SettingType<T>,
  options: Options & { default?: string | Computed<T> },
): Setting<T | undefined> {
  return build(env, type, options, options.default) as Setting<T | undefined>;
}
