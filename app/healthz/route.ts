// Liveness: answers as long as the server runs. Playwright's webServer waits on it too.
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
