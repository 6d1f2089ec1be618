// Small helpers for talking to the API in tests. Requests go as an admin (the servers the tests
// start accept TEST_ADMIN_TOKEN as ALMANAC_ADMIN_TOKEN), unless they bring their own
// Authorization header or ask to be anonymous.
export const TEST_ADMIN_TOKEN = "test-admin-token-for-almanac-tests";
export const ADMIN_HEADERS = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function call<T = any>(
  baseUrl: string,
  path: string,
  init: RequestInit & { anonymous?: boolean } = {},
): Promise<ApiResponse<T>> {
  const { anonymous, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (!anonymous && !headers.has("authorization")) headers.set("authorization", ADMIN_HEADERS.authorization);
  const response = await fetch(`${baseUrl}${path}`, { ...rest, headers });
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
