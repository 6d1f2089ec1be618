// The coming maintenance windows and forced updates as iCalendar feeds.
import { operation } from "../operation.ts";
import { download, onProject, SHOOT } from "./common.ts";

const calendar = {
  status: 200,
  description: "An iCalendar file (RFC 5545).",
  media: { "text/calendar": { text: "RFC 5545, one event per window." } },
  headers: download,
};

export const getShootCalendar = operation({
  method: "get",
  path: `${SHOOT}/calendar.ics`,
  operationId: "getShootCalendar",
  tag: "Calendars",
  summary: "The shoot's maintenance windows and forced updates of the next 30 days",
  access: onProject,
  answers: [calendar],
  problems: [404, 503],
});

export const getNamespaceCalendar = operation({
  method: "get",
  path: "/api/v1/namespaces/{namespace}/calendar.ics",
  operationId: "getNamespaceCalendar",
  tag: "Calendars",
  summary: "The maintenance windows and forced updates of the next 30 days of every shoot in a namespace",
  access: onProject,
  answers: [calendar],
  problems: [404, 503],
});
