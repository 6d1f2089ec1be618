// GET /api/v1/projects: every project, with its namespace and toleration defaults. Who belongs to
// a project (spec.members, owner, createdBy) is left out: anyone with a role on any project reads
// this list, and a live garden's projects name their members, which Gardener shows only to them.
import type { Db } from "../db/client.ts";
import type { Project } from "../gardener/types.ts";
import { listProjects as storedProjects } from "../store/projects.ts";

function withoutPeople(project: Project): Project {
  const {
    members: _members,
    owner: _owner,
    createdBy: _createdBy,
    ...spec
  } = project.spec as Project["spec"] & {
    members?: unknown;
    owner?: unknown;
    createdBy?: unknown;
  };
  return { ...project, spec };
}

export async function listProjects(db: Db): Promise<{ items: Project[] }> {
  return { items: (await storedProjects(db)).map(withoutPeople) };
}
