// The namespaces a caller may read: those Almanac's roles allow (every one with a role on the
// whole landscape, else those of the projects they hold a role on), narrowed to those the garden
// lets them list shoots in (lib/auth/garden-access.ts: the simulated garden lets everyone read
// everything; a live garden's RBAC decides). For the fleet-wide lists (fleet-scope.ts) and the
// event stream, which must not name shoots the caller may not read.
import { allows, LANDSCAPE } from "../api/roles.ts";
import { gardenIdentityOf } from "./garden-identity.ts";
import type { Principal } from "./principal.ts";
import type { Db } from "../db/client.ts";
import { type CandidateNamespace, type GardenAccess, intersectReadable, type ProjectMember } from "./garden-access.ts";
import { listProjects } from "../store/projects.ts";

export interface Readable {
  /** What both allow. */
  readonly namespaces: "all" | ReadonlySet<string>;
  /** Whether the garden took anything away from what the roles allow (then refusals may be its). */
  readonly narrowedByGarden: boolean;
}

/** The projects' namespaces, with each project's members as the mirror has them (spec.members). */
async function projectNamespaces(db: Db, projects?: ReadonlySet<string>): Promise<CandidateNamespace[]> {
  return (await listProjects(db))
    .filter((p) => projects === undefined || projects.has(p.metadata.name))
    .filter((p): p is typeof p & { spec: { namespace: string } } => typeof p.spec.namespace === "string")
    .map((p) => ({ namespace: p.spec.namespace, members: membersOf(p.spec.members) }));
}

/** Project spec.members as Gardener writes them; undefined when the document has none to read. */
function membersOf(members: unknown): ProjectMember[] | undefined {
  if (!Array.isArray(members)) return undefined;
  return members.filter(
    (m): m is ProjectMember =>
      typeof m === "object" && m !== null && typeof m.kind === "string" && typeof m.name === "string",
  );
}

/** What `principal` may read, by their roles and in the garden. */
export async function readable(db: Db, principal: Principal, access: GardenAccess): Promise<Readable> {
  const byRoles: "all" | ReadonlySet<string> = allows(principal.bindings, "read")
    ? "all"
    : new Set(
        await projectNamespaces(
          db,
          new Set(
            principal.bindings.filter((b) => b.scope !== LANDSCAPE && allows([b], "read", b.scope)).map((b) => b.scope),
          ),
        ).then((found) => found.map((c) => c.namespace)),
      );
  if (byRoles !== "all" && byRoles.size === 0) return { namespaces: byRoles, narrowedByGarden: false };
  // Only the namespaces the roles allow are worth asking the garden about; with a landscape-wide
  // role, every project's (read only if the garden does not answer "all" at once).
  const inGarden = await access.readableNamespaces(gardenIdentityOf(principal), async () =>
    (await projectNamespaces(db)).filter((c) => byRoles === "all" || byRoles.has(c.namespace)),
  );
  const namespaces = intersectReadable(byRoles, inGarden);
  return { namespaces, narrowedByGarden: inGarden !== "all" };
}

export async function readableNamespaces(
  db: Db,
  principal: Principal,
  access: GardenAccess,
): Promise<"all" | ReadonlySet<string>> {
  return (await readable(db, principal, access)).namespaces;
}

/**
 * Whether a long-lived reader (the event stream) may read a namespace's shoots: asked now, and
 * again each time the garden's answers expire (a live garden's RBAC may change) until `signal`
 * ends. When asking again fails, nothing is readable until an answer comes (fail closed).
 */
export async function followReadableNamespaces(
  db: Db,
  principal: Principal,
  access: GardenAccess,
  signal: AbortSignal,
): Promise<(namespace: string) => boolean> {
  let current = await readableNamespaces(db, principal, access);
  const holdsMs = access.answerHoldsMs;
  if (holdsMs !== undefined && !signal.aborted) {
    let asking = false;
    const timer = setInterval(() => {
      if (asking) return;
      asking = true;
      readableNamespaces(db, principal, access)
        .then(
          (namespaces) => (current = namespaces),
          () => (current = new Set()),
        )
        .finally(() => (asking = false));
    }, holdsMs);
    timer.unref?.();
    signal.addEventListener("abort", () => clearInterval(timer), { once: true });
  }
  return (namespace) => current === "all" || current.has(namespace);
}
