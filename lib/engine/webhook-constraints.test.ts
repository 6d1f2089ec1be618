import { describe, expect, it } from "vitest";
import {
  checkForProblematicWebhooks,
  isProblematicWebhook,
  matcherMatches,
  requirementsMatch,
  selectorRequirements,
  WEBHOOK_CONSTRAINT_MATCHERS,
  WEBHOOK_CONSTRAINT_MATCHERS_FOR_LEASES,
  type LabelSelector,
  type Webhook,
  type WebhookConfiguration,
} from "./webhook-constraints.ts";

// ---------------------------------------------------------------------------------------------
// Gardener's own table, pkg/gardenlet/controller/shoot/care/constraints_test.go ("#IsProblematicWebhook"):
// one webhook with one rule on one group/version/resource, and the selectors, failure policy,
// timeout and operation of each entry. Written out again in our own TypeScript.
// ---------------------------------------------------------------------------------------------

interface Case {
  failurePolicy?: "Fail" | "Ignore";
  operation?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  timeoutSeconds?: number;
}
type Entry = readonly [name: string, Case];
type Gvr = readonly [group: string, version: string, resource: string];

/** Gardener's webhookTestCase.build(): one rule, operation * unless the entry names one. */
function build([group, version, resource]: Gvr, c: Case): Webhook {
  return {
    name: "test",
    ...(c.failurePolicy ? { failurePolicy: c.failurePolicy } : {}),
    ...(c.timeoutSeconds !== undefined ? { timeoutSeconds: c.timeoutSeconds } : {}),
    ...(c.namespaceSelector ? { namespaceSelector: c.namespaceSelector } : {}),
    ...(c.objectSelector ? { objectSelector: c.objectSelector } : {}),
    rules: [{ apiGroups: [group], resources: [resource], apiVersions: [version], operations: [c.operation ?? "*"] }],
  };
}

const labels = (matchLabels: Record<string, string>): LabelSelector => ({ matchLabels });
const notIn = (key: string, value: string): LabelSelector => ({
  matchExpressions: [{ key, operator: "NotIn", values: [value] }],
});

const kubeSystemNamespaceProblematic: Entry[] = [
  [
    "namespaceSelector matching no-cleanup",
    { namespaceSelector: labels({ "shoot.gardener.cloud/no-cleanup": "true" }) },
  ],
  ["namespaceSelector matching purpose", { namespaceSelector: labels({ "gardener.cloud/purpose": "kube-system" }) }],
  [
    "namespaceSelector matching name label",
    { namespaceSelector: labels({ "kubernetes.io/metadata.name": "kube-system" }) },
  ],
  [
    "namespaceSelector matching all gardener labels",
    {
      namespaceSelector: labels({
        "shoot.gardener.cloud/no-cleanup": "true",
        "gardener.cloud/purpose": "kube-system",
        "kubernetes.io/metadata.name": "kube-system",
      }),
    },
  ],
];
const kubeSystemNamespaceNotProblematic: Entry[] = [
  ["not matching namespaceSelector", { namespaceSelector: labels({ foo: "bar" }) }],
  [
    "namespaceSelector excluding name label",
    { namespaceSelector: notIn("kubernetes.io/metadata.name", "kube-system") },
  ],
];

function commonTests(gvr: Gvr, problematic: Entry[], notProblematic: Entry[]) {
  const name = `${gvr[0]}/${gvr[1]}, Resource=${gvr[2]}`;
  const extraProblematic: Entry[] = [];
  const extraNotProblematic: Entry[] = [];
  if (gvr[2] === "leases" || (gvr[0] === "*" && gvr[2] === "*"))
    extraProblematic.push([
      "failurePolicy 'Ignore' and timeoutSeconds ok",
      { failurePolicy: "Ignore", timeoutSeconds: 15 },
    ]);
  else
    extraNotProblematic.push(
      [
        "failurePolicy 'Ignore' and timeoutSeconds ok, with an objectSelector",
        { failurePolicy: "Ignore", timeoutSeconds: 15, objectSelector: labels({ "app.kubernetes.io/name": "test" }) },
      ],
      ["failurePolicy 'Ignore' and timeoutSeconds ok", { failurePolicy: "Ignore", timeoutSeconds: 15 }],
    );
  const alwaysProblematic: Entry[] = [
    ["CREATE", { failurePolicy: "Fail", timeoutSeconds: 16, operation: "CREATE" }],
    ["CREATE with nil failurePolicy and nil timeoutSeconds", { operation: "CREATE" }],
    ["CREATE with nil failurePolicy and timeoutSeconds too high", { operation: "CREATE", timeoutSeconds: 16 }],
    ["CREATE with failurePolicy 'Ignore' and nil timeoutSeconds", { failurePolicy: "Ignore", operation: "CREATE" }],
    [
      "CREATE with failurePolicy 'Ignore' and timeoutSeconds too high",
      { failurePolicy: "Ignore", operation: "CREATE", timeoutSeconds: 16 },
    ],
    ["CREATE with failurePolicy 'Fail' and nil timeoutSeconds", { failurePolicy: "Fail", operation: "CREATE" }],
    [
      "CREATE with failurePolicy 'Fail' and timeoutSeconds ok",
      { failurePolicy: "Fail", operation: "CREATE", timeoutSeconds: 15 },
    ],
    ["UPDATE", { operation: "UPDATE" }],
    ["*", { operation: "*" }],
  ];
  describe(`problematic webhook for ${name}`, () => {
    it.each([...alwaysProblematic, ...problematic, ...extraProblematic])("%s", (_, c) => {
      expect(isProblematicWebhook(build(gvr, c))).toBe(true);
    });
  });
  describe(`not problematic webhook for ${name}`, () => {
    it.each([["operationType 'DELETE'", { operation: "DELETE" }] as Entry, ...notProblematic, ...extraNotProblematic])(
      "%s",
      (_, c) => {
        expect(isProblematicWebhook(build(gvr, c))).toBe(false);
      },
    );
  });
}

const podsTestTables = (gvr: Gvr) =>
  commonTests(
    gvr,
    [
      ...kubeSystemNamespaceProblematic,
      ["objectSelector matching no-cleanup", { objectSelector: labels({ "shoot.gardener.cloud/no-cleanup": "true" }) }],
      ["objectSelector matching origin", { objectSelector: labels({ origin: "gardener" }) }],
      [
        "objectSelector matching all gardener labels",
        { objectSelector: labels({ "shoot.gardener.cloud/no-cleanup": "true", origin: "gardener" }) },
      ],
      [
        "objectSelector and namespaceSelector matching all gardener labels",
        {
          objectSelector: labels({ "shoot.gardener.cloud/no-cleanup": "true", origin: "gardener" }),
          namespaceSelector: labels({
            "shoot.gardener.cloud/no-cleanup": "true",
            "gardener.cloud/purpose": "kube-system",
          }),
        },
      ],
    ],
    [
      ...kubeSystemNamespaceNotProblematic,
      [
        "matching objectSelector, not matching namespaceSelector",
        {
          objectSelector: labels({ origin: "gardener", "shoot.gardener.cloud/no-cleanup": "true" }),
          namespaceSelector: labels({ foo: "bar" }),
        },
      ],
      ["not matching objectSelector", { objectSelector: labels({ foo: "bar" }) }],
      [
        "matching namespaceSelector, not matching objectSelector",
        {
          objectSelector: labels({ foo: "bar" }),
          namespaceSelector: labels({
            "shoot.gardener.cloud/no-cleanup": "true",
            "gardener.cloud/purpose": "kube-system",
          }),
        },
      ],
    ],
  );

const namespacesTestTables = (gvr: Gvr) =>
  commonTests(
    gvr,
    [
      [
        "namespaceSelector matching purpose",
        { namespaceSelector: labels({ "gardener.cloud/purpose": "kube-system" }) },
      ],
      ["objectSelector matching purpose", { objectSelector: labels({ "gardener.cloud/purpose": "kube-system" }) }],
    ],
    [
      ["namespaceSelector not matching purpose", { namespaceSelector: notIn("gardener.cloud/purpose", "kube-system") }],
      ["not matching namespaceSelector", { namespaceSelector: labels({ foo: "bar" }) }],
      ["objectSelector not matching purpose", { objectSelector: notIn("gardener.cloud/purpose", "kube-system") }],
      ["not matching objectSelector", { objectSelector: labels({ foo: "bar" }) }],
      [
        "matching objectSelector, not matching namespaceSelector",
        {
          objectSelector: labels({ "gardener.cloud/purpose": "kube-system" }),
          namespaceSelector: labels({ foo: "bar" }),
        },
      ],
      [
        "matching namespaceSelector, not matching objectSelector",
        {
          objectSelector: labels({ foo: "bar" }),
          namespaceSelector: labels({ "gardener.cloud/purpose": "kube-system" }),
        },
      ],
    ],
  );

const kubeSystemNamespaceTables = (gvr: Gvr) =>
  commonTests(gvr, kubeSystemNamespaceProblematic, kubeSystemNamespaceNotProblematic);
const withoutSelectorsTables = (gvr: Gvr) => commonTests(gvr, [], []);

const workloads = (group: string, version: string): Gvr[] => [
  [group, version, "controllerrevisions"],
  [group, version, "daemonsets"],
  [group, version, "daemonsets/status"],
  [group, version, "deployments"],
  [group, version, "deployments/scale"],
  [group, version, "replicasets"],
  [group, version, "replicasets/status"],
  [group, version, "replicasets/scale"],
];

describe("IsProblematicWebhook, Gardener's table (care/constraints_test.go)", () => {
  podsTestTables(["", "v1", "pods"]);
  podsTestTables(["", "v1", "pods/status"]);
  kubeSystemNamespaceTables(["", "v1", "configmaps"]);
  withoutSelectorsTables(["", "v1", "endpoints"]);
  kubeSystemNamespaceTables(["", "v1", "secrets"]);
  kubeSystemNamespaceTables(["", "v1", "serviceaccounts"]);
  withoutSelectorsTables(["", "v1", "services"]);
  withoutSelectorsTables(["", "v1", "services/status"]);
  withoutSelectorsTables(["", "v1", "nodes"]);
  withoutSelectorsTables(["", "v1", "nodes/status"]);
  namespacesTestTables(["", "v1", "namespaces"]);
  namespacesTestTables(["", "v1", "namespaces/status"]);
  for (const gvr of [
    ...workloads("apps", "v1"),
    ...workloads("apps", "v1beta1"),
    ...workloads("apps", "v1beta2"),
    ...workloads("extensions", "v1beta1"),
  ])
    kubeSystemNamespaceTables(gvr);
  kubeSystemNamespaceTables(["extensions", "v1beta1", "networkpolicies"]);
  // No webhook on leases escapes: Gardener considers leases in every namespace.
  commonTests(["coordination.k8s.io", "v1", "leases"], kubeSystemNamespaceProblematic, []);
  withoutSelectorsTables(["coordination.k8s.io", "v1", "leases"]);
  withoutSelectorsTables(["coordination.k8s.io", "v1beta1", "leases"]);
  kubeSystemNamespaceTables(["networking.k8s.io", "v1", "networkpolicies"]);
  kubeSystemNamespaceTables(["networking.k8s.io", "v1beta1", "networkpolicies"]);
  for (const version of ["v1", "v1alpha1", "v1beta1"]) {
    withoutSelectorsTables(["rbac.authorization.k8s.io", version, "clusterroles"]);
    withoutSelectorsTables(["rbac.authorization.k8s.io", version, "clusterrolebindings"]);
    kubeSystemNamespaceTables(["rbac.authorization.k8s.io", version, "roles"]);
    kubeSystemNamespaceTables(["rbac.authorization.k8s.io", version, "rolebindings"]);
  }
  for (const version of ["v1", "v1beta1"]) {
    withoutSelectorsTables(["apiextensions.k8s.io", version, "customresourcedefinitions"]);
    withoutSelectorsTables(["apiextensions.k8s.io", version, "customresourcedefinitions/status"]);
    withoutSelectorsTables(["apiregistration.k8s.io", version, "apiservices"]);
    withoutSelectorsTables(["apiregistration.k8s.io", version, "apiservices/status"]);
    withoutSelectorsTables(["scheduling.k8s.io", version, "priorityclasses"]);
  }
  withoutSelectorsTables(["certificates.k8s.io", "v1", "certificatesigningrequests"]);
  withoutSelectorsTables(["certificates.k8s.io", "v1", "certificatesigningrequests/status"]);
  withoutSelectorsTables(["certificates.k8s.io", "v1", "certificatesigningrequests/approval"]);
  withoutSelectorsTables(["*", "*", "*"]);
  withoutSelectorsTables(["apps", "*", "*"]);
  withoutSelectorsTables(["apps", "v1", "*"]);

  it("should not block another resource", () => {
    expect(isProblematicWebhook(build(["foo", "baz", "bar"], { failurePolicy: "Fail", operation: "CREATE" }))).toBe(
      false,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The rest follows the Gardener sources named in each describe; the cases are ours.
// ---------------------------------------------------------------------------------------------

describe("the critical resources (Gardener matchers/matcher.go)", () => {
  it("are the 77 entries of WebhookConstraintMatchers and the 2 of WebhookConstraintMatchersForLeases", () => {
    expect(WEBHOOK_CONSTRAINT_MATCHERS).toHaveLength(77);
    expect(WEBHOOK_CONSTRAINT_MATCHERS_FOR_LEASES).toHaveLength(2);
    const keys = WEBHOOK_CONSTRAINT_MATCHERS.map(
      (m) =>
        `${m.group}/${m.version}/${m.resource}${m.subresource ? `/${m.subresource}` : ""}|${JSON.stringify(m.namespaceLabels ?? null)}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("name kube-system by all three of its labels, default by its name label", () => {
    const configmaps = WEBHOOK_CONSTRAINT_MATCHERS.find((m) => m.resource === "configmaps")!;
    expect(configmaps.namespaceLabels).toEqual({
      "shoot.gardener.cloud/no-cleanup": "true",
      "gardener.cloud/purpose": "kube-system",
      "kubernetes.io/metadata.name": "kube-system",
    });
    const defaultEndpoints = WEBHOOK_CONSTRAINT_MATCHERS.filter((m) => m.resource === "endpoints");
    expect(defaultEndpoints.map((m) => m.namespaceLabels?.["kubernetes.io/metadata.name"]).sort()).toEqual([
      "default",
      "kube-system",
    ]);
  });
});

describe("IsProblematicWebhook: leases in kube-system (Gardener care/constraints.go)", () => {
  const leases = (c: Case) => build(["coordination.k8s.io", "v1", "leases"], c);
  const keepKubeSystemOut = notIn("gardener.cloud/purpose", "kube-system");

  it("a timeout over 3 s on kube-system leases is problematic whatever the failure policy", () => {
    for (const timeoutSeconds of [4, 10, 15])
      expect(isProblematicWebhook(leases({ failurePolicy: "Ignore", timeoutSeconds }))).toBe(true);
  });

  it("3 s or less with Ignore is fine", () => {
    for (const timeoutSeconds of [1, 3])
      expect(isProblematicWebhook(leases({ failurePolicy: "Ignore", timeoutSeconds }))).toBe(false);
  });

  it("a namespaceSelector keeping kube-system out does not spare Fail: leases matter in every namespace", () => {
    expect(
      isProblematicWebhook(leases({ failurePolicy: "Fail", timeoutSeconds: 2, namespaceSelector: keepKubeSystemOut })),
    ).toBe(true);
  });

  it("with kube-system kept out, Ignore with a short timeout is fine even over 3 s", () => {
    expect(
      isProblematicWebhook(
        leases({ failurePolicy: "Ignore", timeoutSeconds: 10, namespaceSelector: keepKubeSystemOut }),
      ),
    ).toBe(false);
  });

  it("an objectSelector that the (unlabelled) leases do not match spares the lease rule", () => {
    expect(
      isProblematicWebhook(leases({ failurePolicy: "Ignore", timeoutSeconds: 10, objectSelector: labels({ a: "b" }) })),
    ).toBe(false);
  });
});

describe("WebhookConstraintMatcher.Match and ruleMatcher (Gardener matchers/matcher.go, rule_matcher.go)", () => {
  const pods = WEBHOOK_CONSTRAINT_MATCHERS[0];
  const nodes = WEBHOOK_CONSTRAINT_MATCHERS.find((m) => m.resource === "nodes" && !m.subresource)!;
  const rule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] };

  it("apiVersions count: a rule without the version, or without any, does not match", () => {
    expect(matcherMatches(pods, rule, undefined, undefined)).toBe(true);
    expect(matcherMatches(pods, { ...rule, apiVersions: ["v2"] }, undefined, undefined)).toBe(false);
    expect(matcherMatches(pods, { ...rule, apiVersions: undefined }, undefined, undefined)).toBe(false);
  });

  it("only CREATE, UPDATE and * count as writes", () => {
    for (const op of ["CREATE", "UPDATE", "*"])
      expect(matcherMatches(pods, { ...rule, operations: [op] }, undefined, undefined)).toBe(true);
    for (const op of ["DELETE", "CONNECT"])
      expect(matcherMatches(pods, { ...rule, operations: [op] }, undefined, undefined)).toBe(false);
  });

  it('resources: "pods" is not "pods/status"; "pods/*" and "*/*" are both; "*" is not a subresource', () => {
    const status = WEBHOOK_CONSTRAINT_MATCHERS[1];
    expect(status.subresource).toBe("status");
    expect(matcherMatches(status, rule, undefined, undefined)).toBe(false);
    for (const resources of [["pods/*"], ["*/*"]]) {
      expect(matcherMatches(pods, { ...rule, resources }, undefined, undefined)).toBe(true);
      expect(matcherMatches(status, { ...rule, resources }, undefined, undefined)).toBe(true);
    }
    expect(matcherMatches(status, { ...rule, resources: ["*"] }, undefined, undefined)).toBe(false);
    expect(matcherMatches(status, { ...rule, resources: ["*/status"] }, undefined, undefined)).toBe(true);
  });

  it("scope: Namespaced misses cluster-scoped resources and namespaces; Cluster misses namespaced ones", () => {
    const nodesRule = { ...rule, resources: ["nodes"] };
    expect(matcherMatches(pods, { ...rule, scope: "Namespaced" }, undefined, undefined)).toBe(true);
    expect(matcherMatches(pods, { ...rule, scope: "Cluster" }, undefined, undefined)).toBe(false);
    expect(matcherMatches(nodes, { ...nodesRule, scope: "Namespaced" }, undefined, undefined)).toBe(false);
    expect(matcherMatches(nodes, { ...nodesRule, scope: "Cluster" }, undefined, undefined)).toBe(true);
    const namespaces = WEBHOOK_CONSTRAINT_MATCHERS.find((m) => m.resource === "namespaces")!;
    const nsRule = { ...rule, resources: ["namespaces"] };
    expect(matcherMatches(namespaces, { ...nsRule, scope: "Cluster" }, undefined, undefined)).toBe(true);
    expect(matcherMatches(namespaces, { ...nsRule, scope: "Namespaced" }, undefined, undefined)).toBe(false);
    expect(matcherMatches(pods, { ...rule, scope: "Sideways" }, undefined, undefined)).toBe(false);
  });

  it("a namespaceSelector does not spare a cluster-scoped resource", () => {
    expect(
      matcherMatches(nodes, { ...rule, resources: ["nodes"] }, undefined, labels({ "policy.example.com/on": "true" })),
    ).toBe(true);
  });

  it("a selector Kubernetes cannot read counts as matching", () => {
    const invalid: LabelSelector = { matchExpressions: [{ key: "a", operator: "In", values: [] }] };
    expect(matcherMatches(pods, { ...rule, apiGroups: ["other"] }, invalid, undefined)).toBe(true);
    const webhook: Webhook = {
      name: "w",
      failurePolicy: "Fail",
      namespaceSelector: invalid,
      rules: [{ operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"] }],
    };
    expect(isProblematicWebhook(webhook)).toBe(true);
    expect(isProblematicWebhook({ ...webhook, rules: [] })).toBe(false);
  });
});

describe("label selectors (Kubernetes metav1.LabelSelectorAsSelector, as Gardener uses them)", () => {
  const has = { app: "web", tier: "frontend" };
  const matches = (selector: LabelSelector | undefined, labels: Record<string, string>) => {
    const r = selectorRequirements(selector);
    return r === "invalid" ? "invalid" : requirementsMatch(r, labels);
  };

  it("absent or empty selects everything", () => {
    expect(matches(undefined, {})).toBe(true);
    expect(matches({}, has)).toBe(true);
    expect(selectorRequirements({ matchLabels: {}, matchExpressions: [] })).toEqual([]);
  });

  it("matchLabels, In, NotIn, Exists, DoesNotExist", () => {
    expect(matches({ matchLabels: { app: "web" } }, has)).toBe(true);
    expect(matches({ matchLabels: { app: "db" } }, has)).toBe(false);
    expect(matches({ matchExpressions: [{ key: "app", operator: "In", values: ["api", "web"] }] }, has)).toBe(true);
    expect(matches({ matchExpressions: [{ key: "env", operator: "In", values: ["prod"] }] }, has)).toBe(false);
    expect(matches({ matchExpressions: [{ key: "env", operator: "NotIn", values: ["prod"] }] }, has)).toBe(true);
    expect(matches({ matchExpressions: [{ key: "app", operator: "NotIn", values: ["web"] }] }, has)).toBe(false);
    expect(matches({ matchExpressions: [{ key: "app", operator: "Exists" }] }, has)).toBe(true);
    expect(matches({ matchExpressions: [{ key: "app", operator: "DoesNotExist" }] }, has)).toBe(false);
  });

  it("In/NotIn without values, Exists/DoesNotExist with values and unknown operators are invalid", () => {
    expect(matches({ matchExpressions: [{ key: "a", operator: "NotIn", values: [] }] }, has)).toBe("invalid");
    expect(matches({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] }, has)).toBe("invalid");
    expect(matches({ matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] }, has)).toBe("invalid");
  });
});

describe("CheckForProblematicWebhooks (Gardener care/constraints.go)", () => {
  const podsFail: Webhook = {
    name: "sidecar-injector.istio.io",
    failurePolicy: "Fail",
    timeoutSeconds: 10,
    rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
  };
  const fine: Webhook = { ...podsFail, name: "fine.example.com", failurePolicy: "Ignore", timeoutSeconds: 5 };
  const config = (
    kind: WebhookConfiguration["kind"],
    name: string,
    webhooks: Webhook[],
    metadata: Partial<WebhookConfiguration["metadata"]> = {},
  ): WebhookConfiguration => ({ kind, metadata: { name, ...metadata }, webhooks });

  it("no problematic webhook: True, NoProblematicWebhooks, no codes", () => {
    expect(checkForProblematicWebhooks([config("ValidatingWebhookConfiguration", "a", [fine])])).toEqual({
      status: "True",
      reason: "NoProblematicWebhooks",
      message: "All webhooks are properly configured.",
    });
  });

  it("names the first problematic webhook in buildProblematicWebhookMessage's words", () => {
    expect(
      checkForProblematicWebhooks([config("MutatingWebhookConfiguration", "istio-sidecar-injector", [fine, podsFail])]),
    ).toEqual({
      status: "False",
      reason: "ProblematicWebhooks",
      message:
        'MutatingWebhookConfiguration "istio-sidecar-injector" is problematic: webhook "sidecar-injector.istio.io" with failurePolicy "Fail" and 10s timeout might prevent worker nodes from properly joining the shoot cluster',
      codes: ["ERR_PROBLEMATIC_WEBHOOK"],
    });
  });

  it('an unset failure policy and timeout read "nil" and "unset timeoutSeconds"', () => {
    const { failurePolicy: _f, timeoutSeconds: _t, ...bare } = podsFail;
    expect(checkForProblematicWebhooks([config("ValidatingWebhookConfiguration", "v", [bare])]).message).toBe(
      'ValidatingWebhookConfiguration "v" is problematic: webhook "sidecar-injector.istio.io" with failurePolicy "nil" and unset timeoutSeconds might prevent worker nodes from properly joining the shoot cluster',
    );
  });

  it("validating configurations come first, each kind in name order, and the first problem wins", () => {
    const verdict = checkForProblematicWebhooks([
      config("MutatingWebhookConfiguration", "a-mutating", [podsFail]),
      config("ValidatingWebhookConfiguration", "z-validating", [podsFail]),
      config("ValidatingWebhookConfiguration", "m-validating", [{ ...podsFail, name: "m" }]),
    ]);
    expect(verdict.message).toMatch(/^ValidatingWebhookConfiguration "m-validating" is problematic: webhook "m"/);
  });

  it("skips configurations Gardener manages (app=gardener-resource-manager, resources.gardener.cloud/managed-by=gardener)", () => {
    for (const labels of [
      { app: "gardener-resource-manager" },
      { "resources.gardener.cloud/managed-by": "gardener" },
    ] as Record<string, string>[])
      expect(
        checkForProblematicWebhooks([config("ValidatingWebhookConfiguration", "g", [podsFail], { labels })]).status,
      ).toBe("True");
    expect(
      checkForProblematicWebhooks([
        config("ValidatingWebhookConfiguration", "g", [podsFail], {
          labels: { "resources.gardener.cloud/managed-by": "someone" },
        }),
      ]).status,
    ).toBe("False");
  });

  it("a configuration remediated by Gardener (gardener.cloud/warning) is problematic after its own webhooks", () => {
    const remediated = config("ValidatingWebhookConfiguration", "policy", [fine], {
      annotations: { "gardener.cloud/warning": "remediated" },
    });
    expect(checkForProblematicWebhooks([remediated, config("MutatingWebhookConfiguration", "m", [podsFail])])).toEqual({
      status: "False",
      reason: "RemediatedWebhooks",
      message:
        'ValidatingWebhookConfiguration "policy" is problematic and was remediated by Gardener (please check its annotations for details).',
      codes: ["ERR_PROBLEMATIC_WEBHOOK"],
    });
    const alsoProblematic = { ...remediated, webhooks: [podsFail] };
    expect(checkForProblematicWebhooks([alsoProblematic]).reason).toBe("ProblematicWebhooks");
    const emptyWarning = config("ValidatingWebhookConfiguration", "p", [fine], {
      annotations: { "gardener.cloud/warning": "" },
    });
    expect(checkForProblematicWebhooks([emptyWarning]).status).toBe("True");
  });
});
