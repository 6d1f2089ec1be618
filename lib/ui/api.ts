// The browser's side of the HTTP API: JSON in, JSON out, and problem+json turned into an error
// that keeps every field problem, so forms can show each message beside its field.
import type { FieldProblem } from "../api/problem.ts";

export class RequestError extends Error {
  readonly status: number;
  readonly title: string;
  readonly errors: readonly FieldProblem[];
  readonly problem: Readonly<Record<string, unknown>>;

  constructor(status: number, problem: Record<string, unknown>) {
    super(typeof problem.detail === "string" ? problem.detail : `The server answered ${status}.`);
    this.status = status;
    this.title = typeof problem.title === "string" ? problem.title : `HTTP ${status}`;
    this.errors = Array.isArray(problem.errors) ? (problem.errors as FieldProblem[]) : [];
    this.problem = problem;
  }

  /** The message of the first problem whose field starts with `prefix`, if any. */
  fieldMessage(prefix: string): string | undefined {
    return this.errors.find(
      (e) => e.field === prefix || e.field.startsWith(`${prefix}.`) || e.field.startsWith(`${prefix}[`),
    )?.detail;
  }
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { detail: text.slice(0, 300) };
    }
  }
  if (!response.ok) throw new RequestError(response.status, (body as Record<string, unknown>) ?? {});
  return body as T;
}

export async function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { signal, headers: { accept: "application/json" } });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new RequestError(0, {
      title: "Network error",
      detail:
        "Almanac's server cannot be reached. Check that it is running; this page retries when the connection is back.",
    });
  }
  return answer<T>(response);
}

export async function apiSend<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(body === undefined
          ? {}
          : { "content-type": method === "PATCH" ? "application/merge-patch+json" : "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new RequestError(0, {
      title: "Network error",
      detail: "Almanac's server cannot be reached; nothing was changed. Try again when the connection is back.",
    });
  }
  return answer<T>(response);
}

/** `/namespaces/{ns}/shoots/{name}` with both parts escaped. */
export const shootPath = (namespace: string, name: string) =>
  `/namespaces/${encodeURIComponent(namespace)}/shoots/${encodeURIComponent(name)}`;
