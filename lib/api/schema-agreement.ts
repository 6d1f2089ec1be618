// Each answer of /api/v1 has a TypeScript type (what the server writes and the pages read) and a
// zod schema (what the OpenAPI document says, lib/server/openapi-document.ts). These checks make
// tsc refuse a schema that does not say what its type says, so the published contract cannot drift
// from the code.
import type { z } from "zod";

/** T compared by its members: readonly dropped, an optional member marked as such. */
type Shape<T> = T extends readonly (infer E)[]
  ? Shape<E>[]
  : T extends object
    ? {
        -readonly [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K>
          ? [Shape<Exclude<T[K], undefined>>, "optional"]
          : Shape<T[K]>;
      }
    : T;

/** T with readonly dropped all the way down; optional members stay optional. */
type Mutable<T> = T extends readonly (infer E)[]
  ? Mutable<E>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

type Same<A, B> = [Shape<A>] extends [Shape<B>] ? ([Shape<B>] extends [Shape<A>] ? true : false) : false;

/**
 * The schema of type T: the schema's output has exactly T's members, each required or optional as
 * in T, of the same types. Use as `describes<AccountJson>()(z.strictObject({...}))`.
 */
export function describes<T>() {
  return <S extends z.ZodType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : "differs from its type")) =>
    schema;
}

/**
 * A schema that holds for every T but may say less: for objects the API passes on as the garden
 * made them (Gardener's shoots, cloud profiles, seeds and projects), described by their main members.
 * Its output type is T as well, so a client typed from the schema (lib/ui/call.ts) reads a T.
 */
export function admits<T>() {
  return <S extends z.ZodType>(
    schema: S & ([Mutable<T>] extends [Mutable<z.output<S>>] ? unknown : "does not admit its type"),
  ) => schema as S & z.ZodType<T, z.input<S>>;
}
