// Projects in Postgres: each owns the namespace garden-<name> where its shoots live.
import type { Project } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Db, Queryable, Tx } from "../db/client.ts";

export async function listProjects(tx: Tx | Db): Promise<Project[]> {
  const rows = await tx.project.findMany({ orderBy: { name: "asc" } });
  return rows.map((row) => {
    const doc = row.document as unknown as Project;
    return {
      ...doc,
      apiVersion: GARDENER_API_VERSION,
      kind: "Project",
      metadata: { ...doc.metadata, name: row.name, resourceVersion: String(row.resourceVersion) },
    };
  });
}

export async function insertProjects(tx: Tx, projects: readonly Project[]): Promise<void> {
  await tx.project.createMany({
    data: projects.map((p) => {
      const { resourceVersion: _rv, ...metadata } = p.metadata;
      return {
        name: p.metadata.name,
        namespace: p.spec.namespace ?? `garden-${p.metadata.name}`,
        document: { ...p, metadata } as unknown as Prisma.InputJsonObject,
      };
    }),
  });
}

/** The project that owns a namespace (garden-<project>). */
export async function findProjectByNamespace(db: Queryable, namespace: string): Promise<Project | undefined> {
  const row = await db.project.findUnique({ where: { namespace } });
  return row ? (row.document as unknown as Project) : undefined;
}

/** Whether a project of this name exists. */
export async function projectExists(db: Queryable, name: string): Promise<boolean> {
  return (await db.project.count({ where: { name } })) > 0;
}

/** The project of this name. */
export async function findProject(db: Queryable, name: string): Promise<Project | undefined> {
  const row = await db.project.findUnique({ where: { name } });
  return row ? (row.document as unknown as Project) : undefined;
}
