// Words and shapes several families of operations share.
import type { z } from "zod";
import { SHOOT_PURPOSES } from "../../engine/shoot-purpose.ts";
import { SHOOT_STATUS_LABELS } from "../../engine/status-label.ts";
import type { Access } from "../operation.ts";
import { SHOOT_SORTS } from "../shoot-sorts.ts";

/** A shoot, by its project's namespace and its name. */
export const SHOOT = "/api/v1/namespaces/{namespace}/shoots/{name}";

export const onProject = { need: "read", project: "namespace" } as const satisfies Access;
export const onAnyProject = { need: "read", project: "any" } as const satisfies Access;
export const admin = { need: "administer" } as const satisfies Access;

export const etagHeader = {
  ETag: "The shoot's resourceVersion, quoted: send it back as If-Match to change what you read.",
};
export const download = { "Content-Disposition": "attachment, with a file name naming the list and the moment." };

export const fleetFilterWords = {
  status: `Comma-separated status labels: ${SHOOT_STATUS_LABELS.join(", ")}.`,
  sort: `One of ${SHOOT_SORTS.join(", ")}; a leading "-" sorts descending. Default: name.`,
  purpose: `Comma-separated purposes (spec.purpose; unset counts as evaluation, Gardener's default): ${SHOOT_PURPOSES.join(", ")}.`,
  labels:
    'A Kubernetes label selector on metadata.labels, as kubectl -l takes it: "env=prod,tier!=web,team in (a,b),!legacy,region".',
  q: "Text to find in the shoot's name, namespace, project, versions, seed or region.",
  expiringWithinDays: "Only shoots with a version expiring within this many days.",
  cursor: "The nextCursor of the previous page.",
};

export const exportMedia = (row: z.ZodType) => ({
  "text/csv": { text: "RFC 4180 with a header line and CRLF line ends (format=csv)." },
  "application/json": { arrayOf: row },
});

export const JSON_BODY = ["application/json"] as const;
