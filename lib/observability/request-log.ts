// The end of every API request: one access line (method, route template, status, time taken) and
// the request duration histogram. Called by route() (lib/http/route.ts) inside the request's
// context, so the line also carries its requestId and actor.
import { logger } from "./logger.ts";
import { metrics } from "./metrics.ts";
import { routeTemplate } from "./route-template.ts";

/** Records a request answered with `status`, started at `startedAt` (performance.now()). */
export function requestAnswered(method: string, status: number, startedAt: number): void {
  const seconds = (performance.now() - startedAt) / 1000;
  const route = routeTemplate();
  metrics().httpDuration.observe({ method, route, status: String(status) }, seconds);
  const line = { method, route, status, durationMs: Math.round(seconds * 10_000) / 10 };
  // At info whatever the status: a failure has its own line at error already.
  logger().info(line, "request");
}
