// The browser's call of an operation of /api/v1 (lib/api/operations): the path is made from the
// operation's and its parameters, the query from an object of the operation's query parameters,
// and the answer is typed by the operation's schema of its successful answer. Errors are those of
// apiGet/apiSend: problem documents become a RequestError with every field problem.
import type { AnswerOf, BodyInput, OperationSpec, PathParams } from "../api/operation.ts";
import { pathOf } from "../api/operation.ts";
import { apiGet, apiSend } from "./api.ts";

type QueryValue = string | number | boolean | undefined;

/** The query a client sends: the operation's parameters by name (an empty or undefined one is left out). */
export type CallQuery<O extends OperationSpec> = O["query"] extends { shape: infer Shape }
  ? { readonly [K in keyof Shape]?: QueryValue }
  : never;

type Present<T, K extends string> = [T] extends [undefined] ? { readonly [P in K]?: never } : { readonly [P in K]: T };
type ParamsPart<O extends OperationSpec> = keyof PathParams<O["path"]> extends never
  ? { readonly params?: never }
  : { readonly params: PathParams<O["path"]> };

export type CallInput<O extends OperationSpec> = ParamsPart<O> & {
  readonly query?: CallQuery<O> | URLSearchParams;
} & Present<BodyInput<O>, "body">;

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `op`'s path under /api/v1 with its parameters and query, as apiGet/apiSend take it. */
export function callPath(op: OperationSpec, input: { params?: object; query?: object } = {}): string {
  const path = pathOf(op, (input.params ?? {}) as Record<string, string>).replace(/^\/api\/v1/, "");
  const search =
    input.query instanceof URLSearchParams
      ? new URLSearchParams(input.query)
      : new URLSearchParams(
          Object.entries((input.query ?? {}) as Record<string, QueryValue>)
            .filter(([, value]) => value !== undefined && value !== "")
            .map(([key, value]) => [key, String(value)]),
        );
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** Calls `op` and answers its JSON, typed by the operation's schema. */
export function call<O extends OperationSpec>(
  op: O,
  ...[input, options]: keyof PathParams<O["path"]> extends never
    ? [input?: CallInput<O>, options?: CallOptions]
    : [input: CallInput<O>, options?: CallOptions]
): Promise<AnswerOf<O>> {
  const path = callPath(op, (input ?? {}) as { params?: object; query?: object });
  if (op.method === "get") return apiGet<AnswerOf<O>>(path, options?.signal);
  const method = op.method.toUpperCase() as "POST" | "PUT" | "PATCH" | "DELETE";
  return apiSend<AnswerOf<O>>(method, path, (input as { body?: unknown } | undefined)?.body, options?.headers);
}
