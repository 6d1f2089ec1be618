// What changes, as server-sent events.
import { z } from "zod";
import { operation } from "../operation.ts";
import { onAnyProject } from "./common.ts";

export const eventsParams = z.strictObject({
  /** Epoch ms: also send what changed since then (what a page read before it connected may miss). */
  since: z.coerce.number().int().min(0).max(8.64e15).optional(),
});

export const followEvents = operation({
  method: "get",
  path: "/api/v1/events",
  operationId: "followEvents",
  tag: "Events",
  summary: "Follow what changes, as server-sent events",
  query: eventsParams,
  queryWords: {
    since: "Epoch milliseconds: first send what changed since then (what a page read before connecting).",
  },
  description:
    "Events: `ready` once connected, `listening` when the database's notifications are followed, and `change` " +
    'with `{"changes": [...]}` naming what changed (only what the caller may read); comments keep the connection open.',
  access: onAnyProject,
  answers: [
    {
      status: 200,
      description: "An endless event stream.",
      media: { "text/event-stream": { text: "Server-sent events (WHATWG HTML)." } },
    },
  ],
  problems: [400, 503],
});
