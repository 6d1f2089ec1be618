// The garden's own objects as GET /api/v1/namespaces/{ns}/shoots/{name}, /cloudprofiles,
// /seeds and /projects pass them on: Gardener's core.gardener.cloud/v1beta1 resources. The
// schemas name their main members and admit the rest (Gardener's API is Gardener's to document);
// tsc checks that every object of the types the server answers fits them.
import { z } from "zod";
import type { CloudProfile, NamespacedCloudProfile, Project, Seed, Shoot } from "../gardener/types.ts";
import { component } from "./components.ts";
import { admits } from "./schema-agreement.ts";

const objectMeta = component(
  "ObjectMeta",
  z.looseObject({
    name: z.string(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.number().optional(),
    creationTimestamp: z.string().optional(),
    deletionTimestamp: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
);

const object = <K extends string, Spec extends z.ZodType, Status extends z.ZodType>(
  kind: readonly [K, ...K[]],
  spec: Spec,
  status: Status,
) =>
  z.looseObject({
    apiVersion: z.string().optional(),
    kind: z.enum(kind).optional(),
    metadata: objectMeta,
    spec,
    status: status.optional(),
  });

/** Gardener's tolerations and seed taints: a key, and a value or none. */
const TOLERATIONS = z.array(z.looseObject({ key: z.string(), value: z.string().optional() }));

export const shootSchema = admits<Shoot>()(
  component(
    "Shoot",
    object(
      ["Shoot"],
      z.looseObject({
        kubernetes: z.looseObject({ version: z.string() }),
        region: z.string().optional().meta({ description: "Gardener requires it; Almanac reads shoots without it." }),
        purpose: z.string().optional(),
        seedName: z.string().optional(),
        maintenance: z
          .looseObject({
            timeWindow: z.looseObject({ begin: z.string(), end: z.string() }).optional(),
            autoUpdate: z
              .looseObject({ kubernetesVersion: z.boolean().optional(), machineImageVersion: z.boolean().optional() })
              .optional(),
            confineSpecUpdateRollout: z.boolean().optional(),
          })
          .optional(),
        hibernation: z
          .looseObject({
            enabled: z.boolean().optional(),
            schedules: z
              .array(
                z.looseObject({
                  start: z.string().optional(),
                  end: z.string().optional(),
                  location: z.string().optional(),
                }),
              )
              .optional()
              .meta({
                description:
                  "Cron schedules (5 fields, robfig/cron) in an IANA location (default UTC): start hibernates, end wakes the shoot.",
              }),
          })
          .optional(),
        tolerations: TOLERATIONS.optional().meta({
          description: "The seed taints this shoot tolerates: a seed hosts it only if every taint is tolerated.",
        }),
      }),
      z.looseObject({
        advertisedAddresses: z
          .array(z.looseObject({ name: z.string(), url: z.string() }))
          .optional()
          .meta({ description: "Where the API server is reached (external, internal, service-account-issuer, ...)." }),
      }),
    ).meta({ description: "A Gardener Shoot (core.gardener.cloud/v1beta1) as the garden has it." }),
  ),
);

export const cloudProfileSchema = admits<CloudProfile>()(
  component(
    "CloudProfile",
    object(
      ["CloudProfile", "NamespacedCloudProfile"],
      z.looseObject({
        type: z.string().optional(),
        kubernetes: z.looseObject({
          versions: z.array(
            z.looseObject({
              version: z.string(),
              classification: z.string().optional(),
              expirationDate: z.string().optional(),
            }),
          ),
        }),
      }),
      z.never(),
    ).meta({
      description:
        "A Gardener CloudProfile: the Kubernetes versions and machine images on offer, with their classifications and expiry.",
    }),
  ),
);

const versionsSchema = z.array(
  z.looseObject({ version: z.string(), classification: z.string().optional(), expirationDate: z.string().optional() }),
);

export const namespacedCloudProfileSchema = admits<NamespacedCloudProfile>()(
  component(
    "NamespacedCloudProfile",
    object(
      ["NamespacedCloudProfile"],
      z.looseObject({
        parent: z.looseObject({ kind: z.string(), name: z.string() }),
        kubernetes: z.looseObject({ versions: versionsSchema.optional() }).optional(),
      }),
      z.looseObject({
        cloudProfileSpec: z
          .looseObject({ kubernetes: z.looseObject({ versions: versionsSchema }) })
          .optional()
          .meta({
            description:
              "The parent's spec with this profile's overrides merged in, written by Gardener's controller: " +
              "what the shoots naming this profile are read against. Absent until Gardener has written it.",
          }),
      }),
    ).meta({
      description:
        "A Gardener NamespacedCloudProfile: a project's extension of a CloudProfile (spec.parent), in the " +
        "project's namespace, e.g. later expiration dates or versions of its own.",
    }),
  ),
);

export const seedSchema = admits<Seed>()(
  component(
    "Seed",
    object(
      ["Seed"],
      z.looseObject({
        provider: z.looseObject({ type: z.string(), region: z.string() }),
        taints: TOLERATIONS.optional().meta({ description: "Only shoots that tolerate every taint may use the seed." }),
      }),
      z.looseObject({}),
    ).meta({ description: "A Gardener Seed: a cluster that hosts shoots' control planes." }),
  ),
);

export const projectSchema = admits<Project>()(
  component(
    "Project",
    object(
      ["Project"],
      z.looseObject({
        namespace: z.string().optional(),
        tolerations: z
          .looseObject({ defaults: TOLERATIONS.optional(), whitelist: TOLERATIONS.optional() })
          .optional()
          .meta({
            description:
              "Tolerations added to new shoots (defaults) and those its shoots may use (whitelist; a key without a value allows any value).",
          }),
      }),
      z.looseObject({ phase: z.string().optional() }),
    ).meta({
      description: "A Gardener Project and its namespace.",
    }),
  ),
);

const listOf = <S extends z.ZodType>(id: string, item: S) => component(id, z.object({ items: z.array(item) }));

export const cloudProfileListSchema = listOf("CloudProfileList", cloudProfileSchema);
export const namespacedCloudProfileListSchema = listOf("NamespacedCloudProfileList", namespacedCloudProfileSchema);
export const seedListSchema = listOf("SeedList", seedSchema);
export const projectListSchema = listOf("ProjectList", projectSchema);
