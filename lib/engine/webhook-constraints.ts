// Which of a shoot's admission webhooks Gardener calls problematic, and the verdict it writes
// into the HibernationPossible and MaintenancePreconditionsSatisfied constraints. Follows Gardener:
// - the critical resources: pkg/gardenlet/operation/botanist/matchers/matcher.go
//   (WebhookConstraintMatchers, WebhookConstraintMatchersForLeases, WebhookConstraintMatcher.Match);
// - matching a rule against one of them: pkg/gardenlet/operation/botanist/matchers/rule_matcher.go
//   (ruleMatcher.Matches);
// - the verdict: pkg/gardenlet/controller/shoot/care/constraints.go (IsProblematicWebhook,
//   CheckForProblematicWebhooks, buildProblematicWebhookMessage, wasRemediatedByGardener).
// Our own TypeScript; the care controller's handling of the constraints is in shoot-constraints.ts.

// ---- The shapes, as the shoot's API server answers them (admissionregistration.k8s.io/v1) ----

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
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
  /** "Cluster", "Namespaced" or "*"; absent means "*". */
  scope?: string;
}

export interface Webhook {
  name: string;
  /**
   * The API server defaults it to Fail, so a live cluster always answers one. Absent is treated as
   * Gardener treats nil: as Fail, and named "nil" in the message.
   */
  failurePolicy?: "Fail" | "Ignore";
  /**
   * The API server defaults it to 10. Absent is treated as Gardener treats nil: problematic on
   * leases, and not a short timeout for Ignore.
   */
  timeoutSeconds?: number;
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
}

export interface WebhookConfiguration {
  kind: "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration";
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  webhooks?: Webhook[];
}

// ---- Label selectors, as Kubernetes' metav1.LabelSelectorAsSelector reads them ----

type Requirement = { key: string; operator: "In" | "NotIn" | "Exists" | "DoesNotExist"; values: string[] };

/**
 * The requirements of a selector, or "invalid" where Kubernetes refuses to build a selector (an
 * unknown operator, In/NotIn without values, Exists/DoesNotExist with values). An absent selector
 * is the empty one, which selects everything (Gardener's defaultEmptySelector).
 */
export function selectorRequirements(selector: LabelSelector | undefined): Requirement[] | "invalid" {
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {}))
    requirements.push({ key, operator: "In", values: [value] });
  for (const e of selector?.matchExpressions ?? []) {
    const values = e.values ?? [];
    switch (e.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) return "invalid";
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) return "invalid";
        break;
      default:
        return "invalid";
    }
    requirements.push({ key: e.key, operator: e.operator, values });
  }
  return requirements;
}

/** Whether labels satisfy every requirement (none: everything matches). */
export function requirementsMatch(requirements: readonly Requirement[], labels: Readonly<Record<string, string>>) {
  return requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.operator) {
      case "In":
        return has && r.values.includes(labels[r.key]);
      case "NotIn":
        return !has || !r.values.includes(labels[r.key]);
      case "Exists":
        return has;
      case "DoesNotExist":
        return !has;
    }
  });
}

// ---- The critical resources (matchers/matcher.go) ----

type Labels = Readonly<Record<string, string>>;

/** One API resource whose writes a cluster needs to wake up or roll its nodes. */
export interface WebhookConstraintMatcher {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly clusterScoped?: boolean;
  /** The labels of the objects concerned; absent: every object. */
  readonly objectLabels?: Labels;
  /** The labels of the namespaces concerned; absent: every namespace. */
  readonly namespaceLabels?: Labels;
}

/** kube-system as Gardener labels it in every shoot. */
const KUBE_SYSTEM: Labels = {
  "shoot.gardener.cloud/no-cleanup": "true",
  "gardener.cloud/purpose": "kube-system",
  "kubernetes.io/metadata.name": "kube-system",
};
const DEFAULT_NAMESPACE: Labels = { "kubernetes.io/metadata.name": "default" };
/** The system component pods Gardener deploys. */
const GARDENER_PODS: Labels = { "shoot.gardener.cloud/no-cleanup": "true", origin: "gardener" };

type Gvr = readonly [group: string, version: string, resource: string, subresource?: string];

const inKubeSystem = (...gvrs: Gvr[]): WebhookConstraintMatcher[] =>
  gvrs.map(([group, version, resource, subresource]) => ({
    group,
    version,
    resource,
    ...(subresource ? { subresource } : {}),
    namespaceLabels: KUBE_SYSTEM,
  }));
const clusterWide = (...gvrs: Gvr[]): WebhookConstraintMatcher[] =>
  gvrs.map(([group, version, resource, subresource]) => ({
    group,
    version,
    resource,
    ...(subresource ? { subresource } : {}),
    clusterScoped: true,
  }));
/** controllerrevisions, daemonsets(/status), deployments(/scale), replicasets(/status, /scale) of a group version. */
const workloads = (group: string, version: string): Gvr[] => [
  [group, version, "controllerrevisions"],
  [group, version, "daemonsets"],
  [group, version, "daemonsets", "status"],
  [group, version, "deployments"],
  [group, version, "deployments", "scale"],
  [group, version, "replicasets"],
  [group, version, "replicasets", "status"],
  [group, version, "replicasets", "scale"],
];
const rbac = (version: string): WebhookConstraintMatcher[] => [
  ...clusterWide(["rbac.authorization.k8s.io", version, "clusterroles"]),
  ...clusterWide(["rbac.authorization.k8s.io", version, "clusterrolebindings"]),
  ...inKubeSystem(
    ["rbac.authorization.k8s.io", version, "roles"],
    ["rbac.authorization.k8s.io", version, "rolebindings"],
  ),
];

/** Gardener's WebhookConstraintMatchersForLeases: leases in kube-system (leader election of the control plane). */
export const WEBHOOK_CONSTRAINT_MATCHERS_FOR_LEASES: readonly WebhookConstraintMatcher[] = [
  { group: "coordination.k8s.io", version: "v1", resource: "leases", namespaceLabels: KUBE_SYSTEM, objectLabels: {} },
  {
    group: "coordination.k8s.io",
    version: "v1beta1",
    resource: "leases",
    namespaceLabels: KUBE_SYSTEM,
    objectLabels: {},
  },
];

/** Gardener's WebhookConstraintMatchers: every resource whose writes waking up a cluster needs. */
export const WEBHOOK_CONSTRAINT_MATCHERS: readonly WebhookConstraintMatcher[] = [
  { group: "", version: "v1", resource: "pods", namespaceLabels: KUBE_SYSTEM, objectLabels: GARDENER_PODS },
  {
    group: "",
    version: "v1",
    resource: "pods",
    subresource: "status",
    namespaceLabels: KUBE_SYSTEM,
    objectLabels: GARDENER_PODS,
  },
  ...inKubeSystem(["", "v1", "configmaps"]),
  { group: "", version: "v1", resource: "endpoints", namespaceLabels: DEFAULT_NAMESPACE },
  ...inKubeSystem(["", "v1", "endpoints"], ["", "v1", "secrets"], ["", "v1", "serviceaccounts"]),
  ...inKubeSystem(["", "v1", "services"], ["", "v1", "services", "status"]),
  { group: "", version: "v1", resource: "services", namespaceLabels: DEFAULT_NAMESPACE },
  { group: "", version: "v1", resource: "services", subresource: "status", namespaceLabels: DEFAULT_NAMESPACE },
  ...clusterWide(["", "v1", "nodes"], ["", "v1", "nodes", "status"]),
  {
    group: "",
    version: "v1",
    resource: "namespaces",
    clusterScoped: true,
    objectLabels: KUBE_SYSTEM,
    namespaceLabels: KUBE_SYSTEM,
  },
  {
    group: "",
    version: "v1",
    resource: "namespaces",
    subresource: "status",
    clusterScoped: true,
    objectLabels: KUBE_SYSTEM,
    namespaceLabels: KUBE_SYSTEM,
  },
  ...inKubeSystem(...workloads("apps", "v1")),
  ...inKubeSystem(...workloads("apps", "v1beta1")),
  ...inKubeSystem(...workloads("apps", "v1beta2")),
  ...inKubeSystem(...workloads("extensions", "v1beta1"), ["extensions", "v1beta1", "networkpolicies"]),
  { group: "coordination.k8s.io", version: "v1", resource: "leases" },
  { group: "coordination.k8s.io", version: "v1beta1", resource: "leases" },
  ...inKubeSystem(["networking.k8s.io", "v1", "networkpolicies"], ["networking.k8s.io", "v1beta1", "networkpolicies"]),
  ...rbac("v1"),
  ...rbac("v1alpha1"),
  ...rbac("v1beta1"),
  ...clusterWide(
    ["apiextensions.k8s.io", "v1", "customresourcedefinitions"],
    ["apiextensions.k8s.io", "v1", "customresourcedefinitions", "status"],
    ["apiextensions.k8s.io", "v1beta1", "customresourcedefinitions"],
    ["apiextensions.k8s.io", "v1beta1", "customresourcedefinitions", "status"],
    ["apiregistration.k8s.io", "v1", "apiservices"],
    ["apiregistration.k8s.io", "v1", "apiservices", "status"],
    ["apiregistration.k8s.io", "v1beta1", "apiservices"],
    ["apiregistration.k8s.io", "v1beta1", "apiservices", "status"],
    ["certificates.k8s.io", "v1", "certificatesigningrequests"],
    ["certificates.k8s.io", "v1", "certificatesigningrequests", "status"],
    ["certificates.k8s.io", "v1", "certificatesigningrequests", "approval"],
    ["scheduling.k8s.io", "v1", "priorityclasses"],
    ["scheduling.k8s.io", "v1beta1", "priorityclasses"],
  ),
];

const isNamespaceResource = (m: WebhookConstraintMatcher) =>
  m.group === "" && m.version === "v1" && m.resource === "namespaces";
const exactOrWildcard = (items: readonly string[] | undefined, wanted: string) =>
  (items ?? []).some((item) => item === "*" || item === wanted);

/** Gardener's ruleMatcher.Matches: scope, operation (CREATE, UPDATE or *), group, version, resource. */
export function ruleMatches(rule: WebhookRule, m: WebhookConstraintMatcher): boolean {
  const scope =
    rule.scope === undefined || rule.scope === "*"
      ? true
      : rule.scope === "Namespaced"
        ? !isNamespaceResource(m) && !m.clusterScoped
        : rule.scope === "Cluster"
          ? isNamespaceResource(m) || m.clusterScoped === true
          : false;
  const operation = (rule.operations ?? []).some((op) => op === "*" || op === "CREATE" || op === "UPDATE");
  const resource = (rule.resources ?? []).some((text) => {
    const slash = text.indexOf("/");
    const res = slash < 0 ? text : text.slice(0, slash);
    const sub = slash < 0 ? "" : text.slice(slash + 1);
    return (res === "*" || res === m.resource) && (sub === "*" || sub === (m.subresource ?? ""));
  });
  return (
    scope &&
    operation &&
    exactOrWildcard(rule.apiGroups, m.group) &&
    exactOrWildcard(rule.apiVersions, m.version) &&
    resource
  );
}

/**
 * Gardener's WebhookConstraintMatcher.Match: whether a webhook rule with these selectors covers the
 * matcher's resource. A selector Kubernetes cannot read counts as matching.
 */
export function matcherMatches(
  m: WebhookConstraintMatcher,
  rule: WebhookRule,
  objectSelector: LabelSelector | undefined,
  namespaceSelector: LabelSelector | undefined,
): boolean {
  const ns = selectorRequirements(namespaceSelector);
  const obj = selectorRequirements(objectSelector);
  if (ns === "invalid" || obj === "invalid") return true;
  const matchObject = m.objectLabels === undefined || obj.length === 0 || requirementsMatch(obj, m.objectLabels);
  const matchNamespace = m.namespaceLabels === undefined || ns.length === 0 || requirementsMatch(ns, m.namespaceLabels);
  // A namespaceSelector selects namespace objects too, although they are cluster-scoped.
  if (isNamespaceResource(m)) return matchObject && matchNamespace && ruleMatches(rule, m);
  return matchObject && (m.clusterScoped === true || matchNamespace) && ruleMatches(rule, m);
}

/** Gardener's WebhookMaximumTimeoutSecondsNotProblematic. */
export const WEBHOOK_MAXIMUM_TIMEOUT_SECONDS_NOT_PROBLEMATIC = 15;
/** Gardener's WebhookMaximumTimeoutSecondsNotProblematicForLeases. */
export const WEBHOOK_MAXIMUM_TIMEOUT_SECONDS_NOT_PROBLEMATIC_FOR_LEASES = 3;

const anyMatch = (webhook: Webhook, matchers: readonly WebhookConstraintMatcher[]) =>
  (webhook.rules ?? []).some((rule) =>
    matchers.some((m) => matcherMatches(m, rule, webhook.objectSelector, webhook.namespaceSelector)),
  );

/**
 * Gardener's IsProblematicWebhook. A webhook on kube-system leases with a timeout over 3 s (or none)
 * is problematic whatever its failure policy; otherwise Ignore with a timeout of at most 15 s is
 * fine; otherwise it is problematic when it intercepts writes to any critical resource.
 */
export function isProblematicWebhook(webhook: Webhook): boolean {
  const timeout = webhook.timeoutSeconds;
  if (
    (timeout === undefined || timeout > WEBHOOK_MAXIMUM_TIMEOUT_SECONDS_NOT_PROBLEMATIC_FOR_LEASES) &&
    anyMatch(webhook, WEBHOOK_CONSTRAINT_MATCHERS_FOR_LEASES)
  )
    return true;
  if (
    webhook.failurePolicy !== undefined &&
    webhook.failurePolicy !== "Fail" &&
    timeout !== undefined &&
    timeout <= WEBHOOK_MAXIMUM_TIMEOUT_SECONDS_NOT_PROBLEMATIC
  )
    return false;
  return anyMatch(webhook, WEBHOOK_CONSTRAINT_MATCHERS);
}

/** Go's %q for the names Kubernetes allows (DNS subdomains and the like). */
const quoted = (text: string) => JSON.stringify(text);

/** Gardener's buildProblematicWebhookMessage. */
export function problematicWebhookMessage(
  kind: WebhookConfiguration["kind"],
  configuration: string,
  webhook: Webhook,
): string {
  const timeout =
    webhook.timeoutSeconds === undefined ? "and unset timeoutSeconds" : `and ${webhook.timeoutSeconds}s timeout`;
  return (
    `${kind} ${quoted(configuration)} is problematic: webhook ${quoted(webhook.name)} with failurePolicy ` +
    `${quoted(webhook.failurePolicy ?? "nil")} ${timeout} might prevent worker nodes from properly joining the shoot cluster`
  );
}

/** Gardener's wasRemediatedByGardener: its webhook remediator left a gardener.cloud/warning annotation. */
export function wasRemediatedByGardener(configuration: WebhookConfiguration): boolean {
  return (configuration.metadata.annotations?.["gardener.cloud/warning"] ?? "") !== "";
}

/**
 * Configurations Gardener deploys itself are not listed by the check: those labelled
 * app=gardener-resource-manager or resources.gardener.cloud/managed-by=gardener.
 */
export function isManagedByGardener(configuration: WebhookConfiguration): boolean {
  const labels = configuration.metadata.labels ?? {};
  return labels.app === "gardener-resource-manager" || labels["resources.gardener.cloud/managed-by"] === "gardener";
}

export interface ConstraintVerdict {
  readonly status: "True" | "False";
  readonly reason: string;
  readonly message: string;
  readonly codes?: readonly string[];
}

export const ERR_PROBLEMATIC_WEBHOOK = "ERR_PROBLEMATIC_WEBHOOK";

const byName = (a: WebhookConfiguration, b: WebhookConfiguration) =>
  a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;

/**
 * Gardener's CheckForProblematicWebhooks: validating configurations, then mutating ones, each kind
 * in name order (the order the API server lists them); the first problematic webhook decides,
 * and a configuration Gardener's remediator has changed counts as problematic after its webhooks.
 */
export function checkForProblematicWebhooks(configurations: readonly WebhookConfiguration[]): ConstraintVerdict {
  const listed = configurations.filter((c) => !isManagedByGardener(c));
  for (const kind of ["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"] as const) {
    for (const configuration of listed.filter((c) => c.kind === kind).sort(byName)) {
      for (const webhook of configuration.webhooks ?? []) {
        if (isProblematicWebhook(webhook))
          return {
            status: "False",
            reason: "ProblematicWebhooks",
            message: problematicWebhookMessage(kind, configuration.metadata.name, webhook),
            codes: [ERR_PROBLEMATIC_WEBHOOK],
          };
      }
      if (wasRemediatedByGardener(configuration))
        return {
          status: "False",
          reason: "RemediatedWebhooks",
          message: `${kind} ${quoted(configuration.metadata.name)} is problematic and was remediated by Gardener (please check its annotations for details).`,
          codes: [ERR_PROBLEMATIC_WEBHOOK],
        };
    }
  }
  return { status: "True", reason: "NoProblematicWebhooks", message: "All webhooks are properly configured." };
}
