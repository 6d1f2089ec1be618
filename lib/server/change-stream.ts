// GET /api/v1/events: server-sent events saying which objects changed, for pages to refetch what
// they show. Changes are gathered for a moment and sent together (a maintenance window changes
// thousands of shoots at once); more than a page-full becomes "everything changed".
import { type Change, changesSince, isListening, onChange } from "../db/change-feed.ts";
import { metrics } from "../observability/metrics.ts";

const FLUSH_MS = 250;
const MAX_LISTED = 500;
const PING_MS = 15_000;

/**
 * `visible` says which changes the caller may learn of (a role on one project: that project's
 * namespace only); "everything changed" names nothing, so every caller gets it.
 */
export function changeStream(
  signal: AbortSignal,
  visible: (change: Change) => boolean = () => true,
  since?: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: Change[] = [];
  let everything = false;
  let stop = () => {};
  return new ReadableStream({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const clients = metrics().eventStreamClients;
      clients.inc();
      let following = true;
      // Reconnect after 3 s; the first event tells the client it is live.
      send(`retry: 3000\nevent: ready\ndata: {}\n\n`);
      const take = (change: Change) => {
        if (change.kind !== "*" && !visible(change)) return;
        if (change.kind === "*") everything = true;
        else if (!everything) pending.push(change);
        if (pending.length > MAX_LISTED) everything = true;
      };
      const off = onChange(take);
      // What changed since the page read its data (`since`) and before it followed the stream
      // reaches it with the first batch; if this process cannot tell, everything changed.
      if (since !== undefined) {
        const missed = changesSince(since);
        if (missed === undefined) everything = true;
        else missed.forEach(take);
      }
      // Once the process listens to the database, and the batch holding the feed's own "everything
      // changed" on connecting is out: from here on each change is listed by name. Pages need not
      // know (EventSource ignores the event); tests wait for it instead of sleeping.
      let announced = false;
      const announce = () => {
        if (announced || !isListening()) return;
        announced = true;
        send(`event: listening\ndata: {}\n\n`);
      };
      const flush = setInterval(() => {
        if (!everything && pending.length === 0) return announce();
        // A client that does not keep up gets one "everything changed" once it reads again.
        if ((controller.desiredSize ?? 1) <= 0) {
          everything = true;
          pending = [];
          return;
        }
        const changes = everything ? [{ kind: "*" }] : pending;
        pending = [];
        everything = false;
        send(`event: change\ndata: ${JSON.stringify({ changes })}\n\n`);
        announce();
      }, FLUSH_MS);
      const ping = setInterval(() => send(`: ping\n\n`), PING_MS);
      stop = () => {
        // Stopped by the client's leaving, a failed send or the end of the stream: counted once.
        if (following) clients.dec();
        following = false;
        off();
        clearInterval(flush);
        clearInterval(ping);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      signal.addEventListener("abort", stop, { once: true });
    },
    cancel() {
      stop();
    },
  });
}
