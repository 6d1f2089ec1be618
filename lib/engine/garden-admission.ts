// The garden's own admission webhooks, as data: what the simulated garden's API server asks before
// it stores an update of a shoot. A real garden has real webhooks (kyverno policies, a platform
// team's validating webhook) that Almanac cannot see; the simulated one has these rules instead,
// and the demo landscape writes them for exactly the shoots whose maintenance it shows rejected.
// A live garden ignores them: its API server answers for itself.
//
// Which requests a rule judges: every update of the maintenance controller (its dry run), and
// every user update of a matching shoot that changes more than the gardener.cloud/operation
// annotation. Asking for an operation (maintain, reconcile, retry) is let through, so that the
// controller that acts on it makes the update, and its update is what the webhook rejects (as
// with Gardener's maintain-now: the annotation is accepted, the maintenance then fails).
import type { LabelSelector, Shoot } from "../gardener/types.ts";
import { matchLabelSelector } from "./label-selector.ts";
import { ANNOTATION_OPERATION } from "./operation-annotations.ts";

/** What the webhook answers: a denial with its message, or no answer in time. */
export type AdmissionAction = { readonly type: "Deny"; readonly message: string } | { readonly type: "Timeout" };

export interface GardenAdmissionRule {
  /** The webhook's name, as the API server names it in its answer (e.g. "validate.kyverno.svc-fail"). */
  readonly webhook: string;
  /**
   * The shoots it applies to: every condition given must hold, so a rule without conditions
   * applies to every shoot. `shoots` lists keys ("namespace/name").
   */
  readonly match: {
    readonly shoots?: readonly string[];
    readonly namespaces?: readonly string[];
    readonly labelSelector?: LabelSelector;
  };
  readonly action: AdmissionAction;
}

export interface AdmissionRejection {
  readonly webhook: string;
  /** The API server's answer, in Kubernetes' words. */
  readonly message: string;
}

/**
 * The API server's words for the rule's answer (k8s.io/apiserver's webhook errors): a denial is
 * `admission webhook "<name>" denied the request: <message>`, a timeout is an internal error
 * calling the webhook.
 */
export function admissionMessage(rule: Pick<GardenAdmissionRule, "webhook" | "action">): string {
  return rule.action.type === "Deny"
    ? `admission webhook "${rule.webhook}" denied the request: ${rule.action.message}`
    : `Internal error occurred: failed calling webhook "${rule.webhook}": failed to call webhook: context deadline exceeded`;
}

// The listed keys as a set, once per rule (a demo rule may list thousands of shoots).
const keySets = new WeakMap<GardenAdmissionRule, ReadonlySet<string>>();
function keySet(rule: GardenAdmissionRule, keys: readonly string[]): ReadonlySet<string> {
  let set = keySets.get(rule);
  if (!set) {
    set = new Set(keys);
    keySets.set(rule, set);
  }
  return set;
}

/** Whether the rule applies to the shoot. A selector that cannot be read matches (the webhook fails closed). */
export function ruleMatches(rule: GardenAdmissionRule, shoot: Shoot): boolean {
  const namespace = shoot.metadata.namespace ?? "";
  const { shoots, namespaces, labelSelector } = rule.match;
  if (shoots && !keySet(rule, shoots).has(`${namespace}/${shoot.metadata.name}`)) return false;
  if (namespaces && !namespaces.includes(namespace)) return false;
  if (labelSelector) {
    const result = matchLabelSelector(labelSelector, shoot.metadata.labels ?? {});
    if (result.ok && !result.matches) return false;
  }
  return true;
}

/** The first rule (in their order) that rejects an update of the shoot, in the API server's words. */
export function admissionRejection(
  shoot: Shoot,
  rules: readonly GardenAdmissionRule[],
): AdmissionRejection | undefined {
  const rule = rules.find((r) => ruleMatches(r, shoot));
  return rule ? { webhook: rule.webhook, message: admissionMessage(rule) } : undefined;
}

function withoutOperation(annotations: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const { [ANNOTATION_OPERATION]: _operation, ...rest } = annotations ?? {};
  return rest;
}

/**
 * Whether the garden's webhooks judge a user's update from `before` to `requested`: anything but a
 * change of the operation annotation alone (spec, labels, other annotations).
 */
export function judgedByAdmission(before: Shoot, requested: Shoot): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return !(
    same(before.spec, requested.spec) &&
    same(before.metadata.labels, requested.metadata.labels) &&
    same(withoutOperation(before.metadata.annotations), withoutOperation(requested.metadata.annotations))
  );
}

/** The rules as the maintenance controller's dry run sees them: the rejection text, if any. */
export function admissionDryRun(rules: readonly GardenAdmissionRule[]): (maintained: Shoot) => string | undefined {
  return (maintained) => admissionRejection(maintained, rules)?.message;
}
