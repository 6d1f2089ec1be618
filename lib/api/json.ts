// Engine records as JSON carries them, so that an API type follows its engine type instead of
// restating it: epoch milliseconds become ISO 8601 text, and optional members the pages test
// against null are sent as null.

/** `T` with the epoch-millisecond members `K` as ISO 8601 text (optional ones stay optional). */
export type WithIsoTimes<T, K extends keyof T> = { readonly [P in keyof T]: P extends K ? string : T[P] };

/** `T` with the optional members `K` always present: null where `T` has none. */
export type WithNulls<T, K extends keyof T> = { readonly [P in keyof T as P extends K ? never : P]: T[P] } & {
  readonly [P in K]-?: Exclude<T[P], undefined> | null;
};
