// The Project objects: owners, members and toleration rules from the tables, so that shoot
// namespaces, creators and the payments seed's taint all have a project that explains them.
import { GARDENER_API_VERSION, type Project } from "../gardener/types.ts";
import { uuid, type Rng } from "./random.ts";
import type { ProjectDef } from "./tables.ts";
import { DAY, iso } from "./time.ts";

export function buildProject(def: ProjectDef, now: number, rng: Rng): Project {
  const tolerations = def.tolerations
    ? {
        ...(def.tolerations.defaults ? { defaults: def.tolerations.defaults.map((t) => ({ ...t })) } : {}),
        ...(def.tolerations.whitelist ? { whitelist: def.tolerations.whitelist.map((t) => ({ ...t })) } : {}),
      }
    : undefined;
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "Project",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation: rng.int(2, 30),
      creationTimestamp: iso(now - rng.int(300, 800) * DAY),
    },
    spec: {
      namespace: `garden-${def.name}`,
      description: def.description,
      purpose: def.purpose,
      owner: { kind: "User", name: def.owner },
      createdBy: { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: def.owner },
      members: [
        { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: def.owner, role: "admin", roles: ["owner"] },
        ...def.members.map((name, i) => ({
          apiGroup: "rbac.authorization.k8s.io",
          kind: "User",
          name,
          role: i === 0 ? "admin" : "viewer",
        })),
      ],
      ...(tolerations ? { tolerations } : {}),
    },
    status: { phase: "Ready" },
  };
}
