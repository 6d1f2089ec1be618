// The landscape's configuration as the garden has it: cloud profiles (also projects' namespaced
// ones), seeds and projects.
import { z } from "zod";
import { cloudProfileUsageSchema } from "../cloud-profile-usage.ts";
import {
  cloudProfileListSchema,
  cloudProfileSchema,
  namespacedCloudProfileListSchema,
  namespacedCloudProfileSchema,
  projectListSchema,
  seedListSchema,
} from "../garden-objects.ts";
import { operation } from "../operation.ts";
import { onAnyProject, onProject } from "./common.ts";

export const namespacedCloudProfileParams = z.strictObject({
  parent: z.string().min(1).max(253).optional().meta({ description: "Only those extending this CloudProfile." }),
});

export const listCloudProfiles = operation({
  method: "get",
  path: "/api/v1/cloudprofiles",
  operationId: "listCloudProfiles",
  tag: "Landscape",
  summary: "The cloud profiles",
  access: onAnyProject,
  answers: [{ status: 200, description: "Every cloud profile.", json: cloudProfileListSchema }],
  problems: [],
});

export const getCloudProfile = operation({
  method: "get",
  path: "/api/v1/cloudprofiles/{name}",
  operationId: "getCloudProfile",
  tag: "Landscape",
  summary: "A cloud profile",
  access: onAnyProject,
  answers: [{ status: 200, description: "The cloud profile.", json: cloudProfileSchema }],
  problems: [404],
});

export const getCloudProfileUsage = operation({
  method: "get",
  path: "/api/v1/cloudprofiles/{name}/usage",
  operationId: "getCloudProfileUsage",
  tag: "Landscape",
  summary: "What the shoots the caller may read run of a cloud profile, counted per version",
  access: onAnyProject,
  answers: [{ status: 200, description: "The counts.", json: cloudProfileUsageSchema }],
  problems: [404],
});

export const listNamespacedCloudProfiles = operation({
  method: "get",
  path: "/api/v1/namespacedcloudprofiles",
  operationId: "listNamespacedCloudProfiles",
  tag: "Landscape",
  summary: "The namespaced cloud profiles in the caller's projects",
  description:
    "Projects' extensions of the cloud profiles. A shoot naming one (spec.cloudProfile.kind " +
    "NamespacedCloudProfile) is read against its status.cloudProfileSpec.",
  access: onAnyProject,
  query: namespacedCloudProfileParams,
  answers: [{ status: 200, description: "Every namespaced cloud profile.", json: namespacedCloudProfileListSchema }],
  problems: [400],
});

export const getNamespacedCloudProfile = operation({
  method: "get",
  path: "/api/v1/namespaces/{namespace}/namespacedcloudprofiles/{name}",
  operationId: "getNamespacedCloudProfile",
  tag: "Landscape",
  summary: "A namespaced cloud profile",
  access: onProject,
  answers: [{ status: 200, description: "The namespaced cloud profile.", json: namespacedCloudProfileSchema }],
  problems: [404],
});

export const listSeeds = operation({
  method: "get",
  path: "/api/v1/seeds",
  operationId: "listSeeds",
  tag: "Landscape",
  summary: "The seeds",
  access: onAnyProject,
  answers: [{ status: 200, description: "Every seed.", json: seedListSchema }],
  problems: [],
});

export const listProjects = operation({
  method: "get",
  path: "/api/v1/projects",
  operationId: "listProjects",
  tag: "Landscape",
  summary: "The projects and their namespaces",
  access: onAnyProject,
  answers: [{ status: 200, description: "Every project.", json: projectListSchema }],
  problems: [],
});
