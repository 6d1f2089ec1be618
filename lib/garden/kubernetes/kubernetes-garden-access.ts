// What a person may read in a live garden, asked of the garden itself: Almanac's own identity (the
// kubeconfig's user, or the pod's service account) posts SubjectAccessReviews
// (authorization.k8s.io/v1) for the person's user and groups, and Kubernetes RBAC answers. First
// "list shoots" cluster-wide (a landscape-wide reader: "all"), else "list shoots" in the namespaces
// of the projects whose members (spec.members, as mirrored) name the person, one of their groups
// or their service account, a few at a time, as Gardener's dashboard does: someone who reads a
// project only through RBAC granted outside its members is not shown it. A project whose members
// are not known is asked about. Answers are kept per identity and namespace for half a minute,
// and callers who ask at the same time share one review; the reviews go over the kubeconfig's
// keep-alive connections (garden-kubeconfig.ts), not one new connection each. A garden that
// cannot answer makes the read fail (GardenUnavailableError), never show everything.
import {
  ApiException,
  AuthorizationV1Api,
  type ConfigurationOptions,
  type KubeConfig,
  Observable,
  type ObservableMiddleware,
  type V1SubjectAccessReview,
} from "@kubernetes/client-node";
import type { GardenIdentity } from "../../auth/garden-identity.ts";
import { redactSecrets } from "../../engine/redact-secrets.ts";
import { logger } from "../../observability/logger.ts";
import {
  type CandidateNamespace,
  type GardenAccess,
  GardenUnavailableError,
  type ProjectMember,
  type ReadableInGarden,
  SHOOT_READ,
} from "../../auth/garden-access.ts";

export interface KubernetesGardenAccessOptions {
  /** How long an answer is kept (30 s). */
  readonly ttlMs?: number;
  /** Reviews under way at once for one list of namespaces (8). */
  readonly parallel?: number;
  /** How long a review may take before the garden counts as not answering (5 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

type Person = Extract<GardenIdentity, { kind: "person" }>;

// Kubernetes adds these to every authenticated request, and so to an impersonated person's
// (unless they are named): the garden's RBAC may bind them, so the review must carry them too.
const AUTHENTICATED = "system:authenticated";
const UNAUTHENTICATED = "system:unauthenticated";

/** The groups the garden sees on the person's own requests. */
export function effectiveGroups(groups: readonly string[]): string[] {
  const unique = [...new Set(groups)];
  return unique.includes(AUTHENTICATED) || unique.includes(UNAUTHENTICATED) ? unique : [...unique, AUTHENTICATED];
}

/** Whether a project's members name `person`: their user, one of their groups, their service account. */
function namesPerson(members: readonly ProjectMember[], person: Person): boolean {
  const groups = new Set(effectiveGroups(person.groups));
  return members.some(
    (m) =>
      (m.kind === "User" && m.name === person.user) ||
      (m.kind === "Group" && groups.has(m.name)) ||
      (m.kind === "ServiceAccount" && `system:serviceaccount:${m.namespace ?? ""}:${m.name}` === person.user),
  );
}

/** The namespaces worth asking about: each project that names `person`, or whose members are not known. */
function worthAsking(candidates: readonly (string | CandidateNamespace)[], person: Person): string[] {
  const namespaces = new Set<string>();
  for (const candidate of candidates) {
    if (typeof candidate === "string") namespaces.add(candidate);
    else if (candidate.members === undefined || namesPerson(candidate.members, person))
      namespaces.add(candidate.namespace);
  }
  return [...namespaces];
}

/** One key per user and set of groups, whatever their order. */
const identityKey = (person: Person) => JSON.stringify([person.user, [...new Set(person.groups)].sort()]);

/** Runs `task` over `items` with at most `limit` under way; rejects with the first failure. */
async function eachLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The reason a review failed, in words for people (no credentials: the server's address at most). */
function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof ApiException) {
    if (error.code === 401 || error.code === 403)
      return `it refused Almanac's access review (HTTP ${error.code}); Almanac's own identity needs create on subjectaccessreviews.authorization.k8s.io`;
    return `it answered Almanac's access review with HTTP ${error.code}`;
  }
  const name = (error as { name?: unknown })?.name;
  if (name === "TimeoutError" || name === "AbortError") return `it did not answer within ${timeoutMs / 1000} s`;
  // fetch says "fetch failed"; its cause says why (ECONNREFUSED, a certificate, ...).
  let detail = error instanceof Error ? error.message : String(error);
  for (let cause = (error as { cause?: unknown })?.cause, depth = 0; cause && depth < 4; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" || typeof message === "string") detail = String(code ?? message);
    cause = (cause as { cause?: unknown }).cause;
  }
  return `it cannot be reached (${redactSecrets(detail)})`;
}

export function kubernetesGardenAccess(
  kubeConfig: KubeConfig,
  options: KubernetesGardenAccessOptions = {},
): GardenAccess {
  const ttlMs = options.ttlMs ?? 30_000;
  const parallel = options.parallel ?? 8;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const now = options.now ?? Date.now;
  const api = kubeConfig.makeApiClient(AuthorizationV1Api);
  // Each review gets its own deadline: client-node sends it as the fetch's abort signal.
  const deadline: ObservableMiddleware = {
    pre: (context) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      return new Observable(Promise.resolve(context));
    },
    post: (context) => new Observable(Promise.resolve(context)),
  };
  const callOptions: ConfigurationOptions = { middleware: [deadline], middlewareMergeStrategy: "append" };

  /** Asks the garden whether `person` may list shoots in `namespace` (undefined: cluster-wide). */
  async function ask(person: Person, namespace: string | undefined): Promise<boolean> {
    const body: V1SubjectAccessReview = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SubjectAccessReview",
      spec: {
        user: person.user,
        groups: effectiveGroups(person.groups),
        resourceAttributes: { ...SHOOT_READ, ...(namespace === undefined ? {} : { namespace }) },
      },
    };
    let review: V1SubjectAccessReview;
    try {
      review = await api.createSubjectAccessReview({ body }, callOptions);
    } catch (error) {
      const reason = failureReason(error, timeoutMs);
      logger().warn(`The garden's access review for ${person.user} failed: ${reason}`);
      throw new GardenUnavailableError(`The garden could not say what you may read: ${reason}. Try again shortly.`, {
        cause: error,
      });
    }
    const allowed = review.status?.allowed;
    if (typeof allowed !== "boolean")
      throw new GardenUnavailableError(
        "The garden could not say what you may read: its access review came back without an answer. Try again shortly.",
      );
    return allowed && review.status?.denied !== true;
  }

  const answers = new Map<string, { readonly until: number; readonly allowed: Promise<boolean> }>();

  /** `ask`, kept for ttlMs; concurrent callers share the review under way; failures are not kept. */
  function allowed(person: Person, namespace: string | undefined): Promise<boolean> {
    const key = `${identityKey(person)}/${namespace ?? ""}`;
    const at = now();
    const hit = answers.get(key);
    if (hit && hit.until > at) return hit.allowed;
    if (answers.size >= 50_000) {
      for (const [k, entry] of answers) if (entry.until <= at) answers.delete(k);
      if (answers.size >= 50_000) answers.clear(); // only bounds memory
    }
    const entry = { until: at + ttlMs, allowed: ask(person, namespace) };
    answers.set(key, entry);
    entry.allowed.catch(() => {
      if (answers.get(key) === entry) answers.delete(key);
    });
    return entry.allowed;
  }

  return {
    answerHoldsMs: ttlMs,
    async readableNamespaces(identity, candidates): Promise<ReadableInGarden> {
      if (identity.kind === "almanac") return "all";
      if (await allowed(identity, undefined)) return "all";
      const namespaces = worthAsking(await candidates(), identity);
      const verdicts = await eachLimited(namespaces, parallel, (namespace) => allowed(identity, namespace));
      return new Set(namespaces.filter((_, i) => verdicts[i]));
    },
    async mayRead(identity, namespace) {
      if (identity.kind === "almanac") return true;
      // A namespaced review also counts the person's cluster-wide bindings, so one review says it.
      return allowed(identity, namespace);
    },
  };
}
