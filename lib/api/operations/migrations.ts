// Moving a shoot's control plane to another seed, and the fleet's migrations.
import { z } from "zod";
import {
  fleetMigrationsAnswerSchema,
  type MigrateRequest,
  shootMigrationAnswerSchema,
  startMigrationAnswerSchema,
} from "../migration.ts";
import { operation } from "../operation.ts";
import { JSON_BODY, onAnyProject, onProject, SHOOT } from "./common.ts";

export const migrateBody: z.ZodType<MigrateRequest> = z.strictObject({
  seedName: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "must be a seed name"),
});

export const migrationsParams = z.strictObject({
  active: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const getShootMigration = operation({
  method: "get",
  path: `${SHOOT}/migration`,
  operationId: "getShootMigration",
  tag: "Migrations",
  summary: "A shoot's latest control-plane migration, and every seed as a destination",
  access: onProject,
  answers: [{ status: 200, description: "The migration and the destinations.", json: shootMigrationAnswerSchema }],
  problems: [404, 503],
});

export const migrateShoot = operation({
  method: "post",
  path: `${SHOOT}/migrate`,
  operationId: "migrateShoot",
  tag: "Migrations",
  summary: "Move the shoot's control plane to another seed",
  access: { need: "administer", project: "namespace" },
  body: { schema: migrateBody, mediaTypes: JSON_BODY, invalid: 'The body must be {"seedName": "<destination seed>"}.' },
  answers: [{ status: 202, description: "The migration started.", json: startMigrationAnswerSchema }],
  problems: [400, 404, 409, 413, 415, 422, 502, 503],
});

export const listMigrations = operation({
  method: "get",
  path: "/api/v1/migrations",
  operationId: "listMigrations",
  tag: "Migrations",
  summary: "The fleet's control-plane migrations",
  access: onAnyProject,
  query: migrationsParams,
  queryWords: { active: '"true": only migrations under way.' },
  answers: [{ status: 200, description: "The migrations, newest first.", json: fleetMigrationsAnswerSchema }],
  problems: [400],
});
