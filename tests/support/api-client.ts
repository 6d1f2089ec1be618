// Small helpers for talking to the API in tests.
export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function call<T = any>(baseUrl: string, path: string, init: RequestInit = {}): Promise<ApiResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let body: any = text;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") && text !== "") body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

export function patch(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(baseUrl, path, {
    method: "PATCH",
    headers: { "content-type": "application/merge-patch+json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
