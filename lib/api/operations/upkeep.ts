// The landscape's upkeep: failed background jobs, the first admin, and this API's description.
import { z } from "zod";
import { failedJobsAnswerSchema, retriedJobAnswerSchema } from "../jobs.ts";
import { operation } from "../operation.ts";
import { passwordSchema } from "../password-policy.ts";
import { setupAnswerSchema } from "../setup.ts";
import { admin, JSON_BODY } from "./common.ts";

export const setupBody = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1, "enter a name").max(100),
  email: z.email("enter an email address").max(254),
  password: passwordSchema,
});

export const listFailedJobs = operation({
  method: "get",
  path: "/api/v1/jobs",
  operationId: "listFailedJobs",
  tag: "Jobs",
  summary: "Background jobs whose retries ran out",
  access: admin,
  answers: [{ status: 200, description: "The newest failed jobs.", json: failedJobsAnswerSchema }],
  problems: [],
});

export const retryFailedJob = operation({
  method: "post",
  path: "/api/v1/jobs/{id}/retry",
  operationId: "retryFailedJob",
  tag: "Jobs",
  summary: "Run a failed job again",
  access: admin,
  answers: [{ status: 202, description: "The job runs again.", json: retriedJobAnswerSchema }],
  problems: [400, 404, 409],
});

export const createFirstAdmin = operation({
  method: "post",
  path: "/api/v1/setup",
  operationId: "createFirstAdmin",
  tag: "Setup",
  summary: "Make the first admin with the setup link's token",
  description: "Public: nobody can sign in yet, and the one-time token is the credential.",
  access: { need: "public" },
  body: {
    schema: setupBody,
    mediaTypes: JSON_BODY,
    invalid: "The first admin needs a name, an email address and a password.",
  },
  answers: [{ status: 201, description: "The admin was made; sign in with the email.", json: setupAnswerSchema }],
  problems: [400, 403, 413, 415],
});

export const getOpenApiDocument = operation({
  method: "get",
  path: "/api/v1/openapi.json",
  operationId: "getOpenApiDocument",
  tag: "Document",
  summary: "This OpenAPI 3.1 document",
  access: { need: "signed-in" },
  answers: [
    { status: 200, description: "The document.", media: { "application/json": { object: "OpenAPI 3.1." } } },
    { status: 304, description: "Unchanged since the ETag given in If-None-Match." },
  ],
  requestHeaders: ["If-None-Match"],
  problems: [],
});
