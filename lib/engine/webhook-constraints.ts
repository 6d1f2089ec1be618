// The shoot constraints Gardener's care controller derives from what runs in the shoot (Gardener:
// docs/usage/shoot/shoot_status.md): HibernationPossible and MaintenancePreconditionsSatisfied from
// the shoot's admission webhooks, CACertificateValiditiesAcceptable from its CA certificates.
import type { Condition } from "../gardener/types.ts";
import { formatTime } from "./time-format.ts";
import { DAY_MS } from "./time-units.ts";

interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: "Cluster" | "Namespaced" | "*";
}

export interface Webhook {
  name: string;
  /** Absent means Fail (the API's default). */
  failurePolicy?: "Fail" | "Ignore";
  /** Absent means 10 (the API's default). */
  timeoutSeconds?: number;
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
}

export interface WebhookConfiguration {
  kind: "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration";
  metadata: { name: string; labels?: Record<string, string> };
  webhooks?: Webhook[];
}

/** The labels of the kube-system namespace in a shoot. */
const KUBE_SYSTEM_LABELS: Record<string, string> = {
  "kubernetes.io/metadata.name": "kube-system",
  "gardener.cloud/purpose": "kube-system",
};

/**
 * Resources a shoot cannot wake up or roll its nodes without: system component pods and their
 * configuration in kube-system, and the nodes themselves (cluster-scoped).
 */
const CRITICAL: readonly { group: string; resource: string; namespaced: boolean }[] = [
  { group: "", resource: "pods", namespaced: true },
  { group: "", resource: "configmaps", namespaced: true },
  { group: "", resource: "secrets", namespaced: true },
  { group: "", resource: "serviceaccounts", namespaced: true },
  { group: "", resource: "services", namespaced: true },
  { group: "", resource: "endpoints", namespaced: true },
  { group: "coordination.k8s.io", resource: "leases", namespaced: true },
  { group: "", resource: "nodes", namespaced: false },
];

const WRITE_OPERATIONS = ["CREATE", "UPDATE"];
const MAX_TIMEOUT_WITH_IGNORE = 15;
const ONE_YEAR_MS = 365 * DAY_MS;

// selectorMatches and problematicWebhooks are exported for their unit tests.
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const r of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, r.key);
    const inValues = has && (r.values ?? []).includes(labels[r.key]);
    if (r.operator === "In" && !inValues) return false;
    if (r.operator === "NotIn" && inValues) return false;
    if (r.operator === "Exists" && !has) return false;
    if (r.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

const covers = (list: string[] | undefined, value: string) => (list ?? []).some((v) => v === "*" || v === value);
const coversResource = (list: string[] | undefined, resource: string) =>
  (list ?? []).some((r) => r === "*" || r === "*/*" || r === resource || r === `${resource}/*`);

/** The critical resources (as "pods", "nodes"...) a webhook intercepts writes to. */
function criticalResourcesOf(webhook: Webhook): string[] {
  const hit = new Set<string>();
  for (const rule of webhook.rules ?? []) {
    if (!WRITE_OPERATIONS.some((op) => covers(rule.operations, op))) continue;
    for (const c of CRITICAL) {
      if (!covers(rule.apiGroups, c.group) || !coversResource(rule.resources, c.resource)) continue;
      if (rule.scope && rule.scope !== "*" && rule.scope !== (c.namespaced ? "Namespaced" : "Cluster")) continue;
      // The namespaceSelector exception: a selector that leaves kube-system out spares its resources.
      if (c.namespaced && !selectorMatches(webhook.namespaceSelector, KUBE_SYSTEM_LABELS)) continue;
      hit.add(c.resource);
    }
  }
  return [...hit];
}

export interface ProblematicWebhook {
  readonly configuration: string;
  readonly kind: WebhookConfiguration["kind"];
  readonly webhook: string;
  readonly failurePolicy: "Fail" | "Ignore";
  readonly timeoutSeconds: number;
  readonly resources: readonly string[];
}

/** Webhooks that can block critical writes: failurePolicy Fail (or unset), or Ignore with a timeout over 15 s. */
export function problematicWebhooks(configurations: readonly WebhookConfiguration[]): ProblematicWebhook[] {
  const found: ProblematicWebhook[] = [];
  for (const configuration of configurations) {
    for (const webhook of configuration.webhooks ?? []) {
      const failurePolicy = webhook.failurePolicy ?? "Fail";
      const timeoutSeconds = webhook.timeoutSeconds ?? 10;
      if (failurePolicy === "Ignore" && timeoutSeconds <= MAX_TIMEOUT_WITH_IGNORE) continue;
      const resources = criticalResourcesOf(webhook);
      if (resources.length === 0) continue;
      found.push({
        configuration: configuration.metadata.name,
        kind: configuration.kind,
        webhook: webhook.name,
        failurePolicy,
        timeoutSeconds,
        resources,
      });
    }
  }
  return found;
}

function describe(p: ProblematicWebhook): string {
  const why =
    p.failurePolicy === "Fail" ? `failurePolicy "Fail"` : `failurePolicy "Ignore" with a ${p.timeoutSeconds}s timeout`;
  return `${p.kind} "${p.configuration}": webhook "${p.webhook}" with ${why} intercepts ${p.resources.join(", ")}`;
}

const FIX =
  "Fix: exclude kube-system with a namespaceSelector (gardener.cloud/purpose NotIn [kube-system]) " +
  `and use failurePolicy "Ignore" with timeoutSeconds of at most ${MAX_TIMEOUT_WITH_IGNORE}.`;

function condition(
  type: string,
  ok: boolean,
  reason: string,
  message: string,
  now: number,
  previous?: Condition,
  codes?: string[],
): Condition {
  const status = ok ? "True" : "False";
  const t = formatTime(now);
  return {
    type,
    status,
    reason,
    message,
    lastTransitionTime: previous && previous.status === status ? (previous.lastTransitionTime ?? t) : t,
    lastUpdateTime: t,
    ...(codes ? { codes } : {}),
  };
}

export interface CACertificate {
  readonly name: string;
  /** epoch ms */
  readonly notAfter: number;
}

/**
 * The constraints for a shoot's webhooks and CAs at `now`. CACertificateValiditiesAcceptable is
 * only present when some CA expires within a year. `previous` keeps transition times.
 */
export function shootConstraints(
  configurations: readonly WebhookConfiguration[],
  certificates: readonly CACertificate[],
  now: number,
  previous: readonly Condition[] = [],
): Condition[] {
  const prior = (type: string) => previous.find((c) => c.type === type);
  const problems = problematicWebhooks(configurations);
  const list = problems.map(describe).join("; ");
  const constraints: Condition[] = [
    problems.length === 0
      ? condition(
          "HibernationPossible",
          true,
          "NoProblematicWebhooks",
          "All webhooks are properly configured.",
          now,
          prior("HibernationPossible"),
        )
      : condition(
          "HibernationPossible",
          false,
          "ProblematicWebhooks",
          `The shoot can probably not be woken up from hibernation: ${list}. ${FIX}`,
          now,
          prior("HibernationPossible"),
          ["ERR_PROBLEMATIC_WEBHOOK"],
        ),
    problems.length === 0
      ? condition(
          "MaintenancePreconditionsSatisfied",
          true,
          "NoProblematicWebhooks",
          "All webhooks are properly configured.",
          now,
          prior("MaintenancePreconditionsSatisfied"),
        )
      : condition(
          "MaintenancePreconditionsSatisfied",
          false,
          "ProblematicWebhooks",
          `Rolling worker nodes during maintenance may be blocked: ${list}. ${FIX}`,
          now,
          prior("MaintenancePreconditionsSatisfied"),
          ["ERR_PROBLEMATIC_WEBHOOK"],
        ),
  ];
  const expiring = certificates.filter((c) => c.notAfter - now < ONE_YEAR_MS).sort((a, b) => a.notAfter - b.notAfter);
  if (expiring.length > 0) {
    constraints.push(
      condition(
        "CACertificateValiditiesAcceptable",
        false,
        "ExpiringCACertificates",
        `Some CA certificates expire in less than a year: ${expiring.map((c) => `"${c.name}" on ${formatTime(c.notAfter)}`).join(", ")}. ` +
          "Consider rotating the certificate authorities (gardener.cloud/operation=rotate-ca-start).",
        now,
        prior("CACertificateValiditiesAcceptable"),
      ),
    );
  }
  return constraints;
}

/** Whether the apiserver admits hibernating the shoot: not while HibernationPossible is False. */
export function hibernationRefusal(constraints: readonly Condition[] | undefined): string | undefined {
  const c = (constraints ?? []).find((x) => x.type === "HibernationPossible");
  return c?.status === "False"
    ? `shoot cannot be hibernated because HibernationPossible is False: ${c.message ?? ""}`.trim()
    : undefined;
}
