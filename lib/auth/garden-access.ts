// What a person may read in the garden: the port the read paths and authorize() ask before they
// answer from the mirror (Postgres), so that a live garden's own RBAC narrows every list, page and event stream,
// not only Almanac's roles. The simulated garden has no RBAC of its own: there Almanac's roles
// alone decide (embedded/embedded-garden-access.ts answers "everything", at once). A live garden
// asks Kubernetes with access reviews (kubernetes/kubernetes-garden-access.ts). The port sits here,
// beside the roles, because what a person may read is authorization; its implementations are
// lib/garden's.
import { Refusal } from "../api/refusal.ts";
import type { GardenIdentity } from "./garden-identity.ts";

/** An answer, at once where the garden knows it without asking (the simulated garden). */
export type Answer<T> = T | Promise<T>;

/** Every namespace, or those listed. */
export type ReadableInGarden = "all" | ReadonlySet<string>;

/** A project's member as Gardener lists it (Project spec.members: an RBAC subject). */
export interface ProjectMember {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/**
 * A namespace the garden may be asked about, with its project's members when they are known (a
 * live garden first narrows to the projects that name the person or one of their groups).
 */
export interface CandidateNamespace {
  readonly namespace: string;
  readonly members?: readonly ProjectMember[];
}

/** What reading shoots is in the garden's RBAC: the one check of every read path. */
export const SHOOT_READ = { verb: "list", group: "core.gardener.cloud", resource: "shoots" } as const;

export interface GardenAccess {
  /**
   * How long an answer holds before the garden is asked again (a long-lived reader such as the
   * event stream asks again after it); undefined when answers never change.
   */
  readonly answerHoldsMs?: number;
  /**
   * The namespaces whose shoots `identity` may read: "all" when the garden lets them list shoots
   * everywhere, else those of `candidates` it lets them list shoots in. `candidates` (the
   * projects' namespaces, from the mirror; a plain name when its members are not known) is asked
   * for only when needed.
   * Throws GardenUnavailableError when the garden cannot say: a read never falls back to all.
   */
  readableNamespaces(
    identity: GardenIdentity,
    candidates: () => Answer<readonly (string | CandidateNamespace)[]>,
  ): Answer<ReadableInGarden>;
  /** Whether `identity` may read (list) shoots in `namespace`; throws GardenUnavailableError likewise. */
  mayRead(identity: GardenIdentity, namespace: string): Answer<boolean>;
}

/**
 * The garden could not say what a person may read (it did not answer, refused Almanac's access
 * review, or answered nonsense). Reads fail closed: a refusal as "unavailable" (503, retry after 5 s).
 */
export class GardenUnavailableError extends Refusal {
  constructor(detail: string, options?: { cause?: unknown }) {
    super("unavailable", detail, { retryAfterSeconds: 5, cause: options?.cause });
    this.name = "GardenUnavailableError";
  }
}

/** `byRoles` narrowed to what the garden lets read. */
export function intersectReadable(byRoles: ReadableInGarden, inGarden: ReadableInGarden): ReadableInGarden {
  if (inGarden === "all") return byRoles;
  if (byRoles === "all") return inGarden;
  return new Set([...byRoles].filter((namespace) => inGarden.has(namespace)));
}
