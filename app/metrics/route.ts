// GET /metrics: Prometheus metrics of the whole installation. A Next route rather than a path the
// web server in front of Next answers, so the usual credentials (lib/auth), problem answers and
// request log apply; the server in front only stamps the TCP peer (lib/http/peer-address.ts) for
// ALMANAC_METRICS_ALLOW. In npm start's web processes the answer sums every process of the
// cluster, asked over node:cluster's IPC through the primary.
import { db } from "@/lib/db/client.ts";
import { publicRoute } from "@/lib/http/route.ts";
import { METRICS_CONTENT_TYPE, scrapeText } from "@/lib/observability/cluster-metrics.ts";
import { requireMetricsReader } from "@/lib/server/metrics-reader.ts";

export const GET = publicRoute(async ({ request }) => {
  await requireMetricsReader(db, request.headers);
  return new Response(await scrapeText(), {
    headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
  });
});
