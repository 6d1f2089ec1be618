// GET /api/v1/projects: every project, with its namespace and toleration defaults.
import type { Db } from "../db/client.ts";
import type { Project } from "../gardener/types.ts";
import { listProjects as storedProjects } from "../store/projects.ts";

export async function listProjects(db: Db): Promise<{ items: Project[] }> {
  return { items: await storedProjects(db) };
}
