import { describe, expect, it } from "vitest";
import type { Condition } from "../gardener/types.ts";
import {
  hibernationRefusal,
  problematicWebhooks,
  selectorMatches,
  shootConstraints,
  type CACertificate,
  type LabelSelector,
  type Webhook,
  type WebhookConfiguration,
  type WebhookRule,
} from "./webhook-constraints.ts";

const NOW = Date.parse("2024-06-01T12:00:00Z");
const DAY = 86_400_000;

const podsCreate: WebhookRule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] };

function config(
  webhooks: Webhook[],
  kind: WebhookConfiguration["kind"] = "ValidatingWebhookConfiguration",
  name = "policy-agent",
): WebhookConfiguration {
  return { kind, metadata: { name }, webhooks };
}

function hook(overrides: Partial<Webhook> = {}): Webhook {
  return { name: "validate.policy.example.com", rules: [podsCreate], ...overrides };
}

/** Whether a single webhook (in a configuration of its own) is problematic. */
const isProblematic = (webhook: Webhook) => problematicWebhooks([config([webhook])]).length > 0;

const webhookConstraints = (configurations: WebhookConfiguration[], previous: Condition[] = [], now = NOW) =>
  shootConstraints(configurations, [], now, previous);

const byType = (conditions: Condition[], type: string) => conditions.find((c) => c.type === type);

const excludeKubeSystem = (key: string): LabelSelector => ({
  matchExpressions: [{ key, operator: "NotIn", values: ["kube-system"] }],
});

describe("problematic webhooks make HibernationPossible and MaintenancePreconditionsSatisfied False", () => {
  for (const failurePolicy of ["Fail", undefined] as const) {
    it(`failurePolicy ${failurePolicy ?? "unset (= Fail)"} on CREATE pods in all namespaces`, () => {
      const constraints = webhookConstraints([
        config([hook({ failurePolicy })], "MutatingWebhookConfiguration", "sidecar-injector"),
      ]);
      for (const type of ["HibernationPossible", "MaintenancePreconditionsSatisfied"]) {
        const c = byType(constraints, type)!;
        expect(c.status).toBe("False");
        expect(c.reason).toBe("ProblematicWebhooks");
        expect(c.codes).toEqual(["ERR_PROBLEMATIC_WEBHOOK"]);
        expect(c.message).toContain('MutatingWebhookConfiguration "sidecar-injector"');
        expect(c.message).toContain('webhook "validate.policy.example.com"');
        expect(c.message).toContain('failurePolicy "Fail"');
        expect(c.message).toContain("intercepts pods");
        expect(c.message).toContain("namespaceSelector (gardener.cloud/purpose NotIn [kube-system])");
        expect(c.message).toContain('failurePolicy "Ignore" with timeoutSeconds of at most 15');
      }
      expect(byType(constraints, "HibernationPossible")!.message).toMatch(
        /^The shoot can probably not be woken up from hibernation: /,
      );
      expect(byType(constraints, "MaintenancePreconditionsSatisfied")!.message).toMatch(
        /^Rolling worker nodes during maintenance may be blocked: /,
      );
      expect(problematicWebhooks([config([hook({ failurePolicy })])])[0]).toMatchObject({
        failurePolicy: "Fail",
        timeoutSeconds: 10,
        resources: ["pods"],
      });
    });
  }

  it("no webhooks: both constraints True with reason NoProblematicWebhooks and no codes", () => {
    const constraints = webhookConstraints([]);
    expect(constraints.map((c) => c.type)).toEqual(["HibernationPossible", "MaintenancePreconditionsSatisfied"]);
    for (const c of constraints) {
      expect(c).toMatchObject({
        status: "True",
        reason: "NoProblematicWebhooks",
        message: "All webhooks are properly configured.",
      });
      expect(c.codes).toBeUndefined();
    }
  });

  it("lists every problematic webhook of every configuration, skipping the fine ones", () => {
    const problems = problematicWebhooks([
      config(
        [hook({ name: "a" }), hook({ name: "fine", failurePolicy: "Ignore" })],
        "ValidatingWebhookConfiguration",
        "first",
      ),
      { kind: "MutatingWebhookConfiguration", metadata: { name: "empty" } },
      config(
        [hook({ name: "b", rules: [{ operations: ["UPDATE"], apiGroups: [""], resources: ["nodes"] }] })],
        "MutatingWebhookConfiguration",
        "second",
      ),
    ]);
    expect(problems.map((p) => [p.kind, p.configuration, p.webhook, p.resources])).toEqual([
      ["ValidatingWebhookConfiguration", "first", "a", ["pods"]],
      ["MutatingWebhookConfiguration", "second", "b", ["nodes"]],
    ]);
    const message = byType(
      webhookConstraints([config([hook({ name: "a" }), hook({ name: "b" })])]),
      "HibernationPossible",
    )!.message!;
    expect(message).toContain('webhook "a"');
    expect(message).toContain('webhook "b"');
  });
});

describe("failurePolicy Ignore and timeoutSeconds", () => {
  for (const timeoutSeconds of [10, 15]) {
    it(`Ignore with timeoutSeconds ${timeoutSeconds} is fine`, () => {
      expect(isProblematic(hook({ failurePolicy: "Ignore", timeoutSeconds }))).toBe(false);
      expect(
        byType(
          webhookConstraints([config([hook({ failurePolicy: "Ignore", timeoutSeconds })])]),
          "HibernationPossible",
        )!.status,
      ).toBe("True");
    });
  }

  for (const timeoutSeconds of [16, 30]) {
    it(`Ignore with timeoutSeconds ${timeoutSeconds} is problematic, and the message names the timeout`, () => {
      expect(isProblematic(hook({ failurePolicy: "Ignore", timeoutSeconds }))).toBe(true);
      const c = byType(
        webhookConstraints([config([hook({ failurePolicy: "Ignore", timeoutSeconds })])]),
        "HibernationPossible",
      )!;
      expect(c.status).toBe("False");
      expect(c.message).toContain(`failurePolicy "Ignore" with a ${timeoutSeconds}s timeout`);
    });
  }

  it("Ignore without a timeout (default 10) is fine", () => {
    expect(isProblematic(hook({ failurePolicy: "Ignore" }))).toBe(false);
  });

  it("Fail is problematic whatever the timeout", () => {
    expect(isProblematic(hook({ failurePolicy: "Fail", timeoutSeconds: 1 }))).toBe(true);
  });
});

describe("the namespaceSelector exception", () => {
  for (const key of ["gardener.cloud/purpose", "kubernetes.io/metadata.name"]) {
    it(`${key} NotIn [kube-system] spares namespaced resources`, () => {
      const rules: WebhookRule[] = [
        {
          operations: ["CREATE", "UPDATE"],
          apiGroups: ["", "coordination.k8s.io"],
          resources: ["pods", "configmaps", "secrets", "leases"],
        },
      ];
      expect(isProblematic(hook({ failurePolicy: "Fail", rules, namespaceSelector: excludeKubeSystem(key) }))).toBe(
        false,
      );
    });

    it(`${key} NotIn [kube-system] does not spare nodes (cluster-scoped)`, () => {
      const webhook = hook({
        failurePolicy: "Fail",
        namespaceSelector: excludeKubeSystem(key),
        rules: [{ operations: ["CREATE"], apiGroups: ["*"], resources: ["*"] }],
      });
      expect(problematicWebhooks([config([webhook])])[0]?.resources).toEqual(["nodes"]);
    });
  }

  it("a selector that still matches kube-system does not spare it", () => {
    expect(isProblematic(hook({ namespaceSelector: excludeKubeSystem("some-other-label") }))).toBe(true);
    expect(
      isProblematic(
        hook({
          namespaceSelector: {
            matchExpressions: [{ key: "gardener.cloud/purpose", operator: "NotIn", values: ["monitoring"] }],
          },
        }),
      ),
    ).toBe(true);
    expect(isProblematic(hook({ namespaceSelector: {} }))).toBe(true);
  });

  it("a selector that only matches labelled namespaces spares kube-system", () => {
    expect(isProblematic(hook({ namespaceSelector: { matchLabels: { "policy.example.com/enforce": "true" } } }))).toBe(
      false,
    );
  });
});

describe("which rules count", () => {
  it("rules that do not write (only DELETE / CONNECT) are fine", () => {
    expect(isProblematic(hook({ rules: [{ operations: ["DELETE"], apiGroups: [""], resources: ["pods"] }] }))).toBe(
      false,
    );
    expect(
      isProblematic(
        hook({ rules: [{ operations: ["CONNECT", "DELETE"], apiGroups: [""], resources: ["pods", "nodes"] }] }),
      ),
    ).toBe(false);
  });

  it("UPDATE counts as a write", () => {
    expect(isProblematic(hook({ rules: [{ operations: ["UPDATE"], apiGroups: [""], resources: ["secrets"] }] }))).toBe(
      true,
    );
  });

  it("resources that are not critical are fine", () => {
    expect(
      isProblematic(
        hook({ rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: ["apps"], resources: ["deployments"] }] }),
      ),
    ).toBe(false);
    expect(
      isProblematic(hook({ rules: [{ operations: ["*"], apiGroups: ["example.com"], resources: ["widgets"] }] })),
    ).toBe(false);
    // pods, but in the wrong group
    expect(isProblematic(hook({ rules: [{ operations: ["CREATE"], apiGroups: ["apps"], resources: ["pods"] }] }))).toBe(
      false,
    );
  });

  it("leases count in coordination.k8s.io", () => {
    expect(
      isProblematic(
        hook({ rules: [{ operations: ["UPDATE"], apiGroups: ["coordination.k8s.io"], resources: ["leases"] }] }),
      ),
    ).toBe(true);
  });

  it("wildcards for apiGroups, resources and operations count", () => {
    expect(isProblematic(hook({ rules: [{ operations: ["CREATE"], apiGroups: ["*"], resources: ["pods"] }] }))).toBe(
      true,
    );
    expect(isProblematic(hook({ rules: [{ operations: ["CREATE"], apiGroups: [""], resources: ["*"] }] }))).toBe(true);
    expect(isProblematic(hook({ rules: [{ operations: ["*"], apiGroups: [""], resources: ["pods"] }] }))).toBe(true);
    expect(isProblematic(hook({ rules: [{ operations: ["CREATE"], apiGroups: [""], resources: ["*/*"] }] }))).toBe(
      true,
    );
  });

  it('"pods/*" counts', () => {
    expect(isProblematic(hook({ rules: [{ operations: ["CREATE"], apiGroups: [""], resources: ["pods/*"] }] }))).toBe(
      true,
    );
  });

  it("everything at once hits every critical resource", () => {
    const problems = problematicWebhooks([
      config([hook({ rules: [{ operations: ["*"], apiGroups: ["*"], resources: ["*"] }] })]),
    ]);
    expect([...problems[0].resources].sort()).toEqual([
      "configmaps",
      "endpoints",
      "leases",
      "nodes",
      "pods",
      "secrets",
      "serviceaccounts",
      "services",
    ]);
  });

  it("a webhook without rules is fine", () => {
    expect(isProblematic({ name: "norules" })).toBe(false);
  });

  it("scope Cluster on pods is not problematic; Namespaced and * are", () => {
    expect(isProblematic(hook({ rules: [{ ...podsCreate, scope: "Cluster" }] }))).toBe(false);
    expect(isProblematic(hook({ rules: [{ ...podsCreate, scope: "Namespaced" }] }))).toBe(true);
    expect(isProblematic(hook({ rules: [{ ...podsCreate, scope: "*" }] }))).toBe(true);
  });

  it("scope Namespaced on nodes is not problematic; Cluster is", () => {
    const nodes: WebhookRule = { operations: ["CREATE"], apiGroups: [""], resources: ["nodes"] };
    expect(isProblematic(hook({ rules: [{ ...nodes, scope: "Namespaced" }] }))).toBe(false);
    expect(isProblematic(hook({ rules: [{ ...nodes, scope: "Cluster" }] }))).toBe(true);
  });
});

describe("selectorMatches", () => {
  const labels = { app: "web", tier: "frontend" };

  it("an absent or empty selector matches everything", () => {
    expect(selectorMatches(undefined, labels)).toBe(true);
    expect(selectorMatches({}, labels)).toBe(true);
    expect(selectorMatches({}, {})).toBe(true);
  });

  it("matchLabels needs every label with the same value", () => {
    expect(selectorMatches({ matchLabels: { app: "web" } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { app: "web", tier: "frontend" } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { app: "db" } }, labels)).toBe(false);
    expect(selectorMatches({ matchLabels: { env: "prod" } }, labels)).toBe(false);
  });

  it("In needs the key with one of the values", () => {
    expect(
      selectorMatches({ matchExpressions: [{ key: "app", operator: "In", values: ["api", "web"] }] }, labels),
    ).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: "app", operator: "In", values: ["api"] }] }, labels)).toBe(
      false,
    );
    expect(selectorMatches({ matchExpressions: [{ key: "env", operator: "In", values: ["prod"] }] }, labels)).toBe(
      false,
    );
  });

  it("NotIn matches a missing key or a value outside the list", () => {
    expect(selectorMatches({ matchExpressions: [{ key: "app", operator: "NotIn", values: ["web"] }] }, labels)).toBe(
      false,
    );
    expect(selectorMatches({ matchExpressions: [{ key: "app", operator: "NotIn", values: ["api"] }] }, labels)).toBe(
      true,
    );
    expect(selectorMatches({ matchExpressions: [{ key: "env", operator: "NotIn", values: ["prod"] }] }, labels)).toBe(
      true,
    );
  });

  it("Exists and DoesNotExist look only at the key", () => {
    expect(selectorMatches({ matchExpressions: [{ key: "app", operator: "Exists" }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: "env", operator: "Exists" }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: "env", operator: "DoesNotExist" }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: "app", operator: "DoesNotExist" }] }, labels)).toBe(false);
  });

  it("matchLabels and all matchExpressions must hold together", () => {
    const selector: LabelSelector = {
      matchLabels: { app: "web" },
      matchExpressions: [
        { key: "tier", operator: "In", values: ["frontend"] },
        { key: "env", operator: "DoesNotExist" },
      ],
    };
    expect(selectorMatches(selector, labels)).toBe(true);
    expect(selectorMatches(selector, { ...labels, env: "prod" })).toBe(false);
    expect(selectorMatches(selector, { ...labels, app: "db" })).toBe(false);
  });
});

describe("transition times", () => {
  const EARLIER = "2024-01-01T00:00:00Z";
  const LATER = NOW + 3_600_000;
  const bad = [config([hook()])];

  it("a new condition starts now", () => {
    for (const c of webhookConstraints([])) {
      expect(c.lastTransitionTime).toBe("2024-06-01T12:00:00Z");
      expect(c.lastUpdateTime).toBe("2024-06-01T12:00:00Z");
    }
  });

  it("keeps lastTransitionTime from a previous condition with the same status", () => {
    const previous: Condition[] = [
      { type: "HibernationPossible", status: "False", lastTransitionTime: EARLIER },
      { type: "MaintenancePreconditionsSatisfied", status: "False", lastTransitionTime: EARLIER },
    ];
    for (const c of webhookConstraints(bad, previous, LATER)) {
      expect(c.lastTransitionTime).toBe(EARLIER);
      expect(c.lastUpdateTime).toBe("2024-06-01T13:00:00Z");
    }
  });

  it("moves lastTransitionTime when the status changes", () => {
    const previous: Condition[] = [
      { type: "HibernationPossible", status: "True", lastTransitionTime: EARLIER },
      { type: "MaintenancePreconditionsSatisfied", status: "False", lastTransitionTime: EARLIER },
    ];
    const constraints = webhookConstraints(bad, previous, LATER);
    expect(byType(constraints, "HibernationPossible")!.lastTransitionTime).toBe("2024-06-01T13:00:00Z");
    expect(byType(constraints, "MaintenancePreconditionsSatisfied")!.lastTransitionTime).toBe(EARLIER);
  });

  it("a round trip False -> True moves it again", () => {
    const first = webhookConstraints(bad, [], NOW);
    const fixed = webhookConstraints([], first, LATER);
    expect(byType(fixed, "HibernationPossible")).toMatchObject({
      status: "True",
      lastTransitionTime: "2024-06-01T13:00:00Z",
    });
  });
});

describe("CACertificateValiditiesAcceptable", () => {
  const ca = (name: string, days: number): CACertificate => ({ name, notAfter: NOW + days * DAY });
  const caCondition = (certificates: CACertificate[], previous: Condition[] = [], now = NOW) =>
    byType(shootConstraints([], certificates, now, previous), "CACertificateValiditiesAcceptable");

  it("is absent when every CA expires in more than a year", () => {
    expect(caCondition([ca("ca", 366), ca("ca-etcd", 3650)])).toBeUndefined();
    expect(caCondition([ca("ca", 365)])).toBeUndefined(); // exactly a year is not less than a year
    expect(caCondition([])).toBeUndefined();
  });

  it("is False when a CA expires within a year, naming the expiring CAs soonest first", () => {
    const c = caCondition([ca("ca", 3650), ca("ca-etcd", 200), ca("ca-front-proxy", 30), ca("ca-kubelet", 364)])!;
    expect(c).toMatchObject({
      status: "False",
      reason: "ExpiringCACertificates",
      lastTransitionTime: "2024-06-01T12:00:00Z",
    });
    expect(c.message).toBe(
      'Some CA certificates expire in less than a year: "ca-front-proxy" on 2024-07-01T12:00:00Z, "ca-etcd" on 2024-12-18T12:00:00Z, ' +
        '"ca-kubelet" on 2025-05-31T12:00:00Z. Consider rotating the certificate authorities (gardener.cloud/operation=rotate-ca-start).',
    );
    expect(c.message).not.toContain('"ca" on');
  });

  it("includes a CA that has already expired", () => {
    expect(caCondition([ca("ca", -1)])!.message).toContain('"ca" on 2024-05-31T12:00:00Z');
  });

  it("keeps its transition time while it stays False", () => {
    const previous: Condition[] = [
      { type: "CACertificateValiditiesAcceptable", status: "False", lastTransitionTime: "2024-01-01T00:00:00Z" },
    ];
    expect(caCondition([ca("ca", 30)], previous)!.lastTransitionTime).toBe("2024-01-01T00:00:00Z");
  });

  it("does not affect the webhook constraints", () => {
    const constraints = shootConstraints([], [ca("ca", 30)], NOW);
    expect(constraints.map((c) => [c.type, c.status])).toEqual([
      ["HibernationPossible", "True"],
      ["MaintenancePreconditionsSatisfied", "True"],
      ["CACertificateValiditiesAcceptable", "False"],
    ]);
  });
});

describe("hibernationRefusal", () => {
  it("refuses only while HibernationPossible is False", () => {
    const blocked = shootConstraints([config([hook()])], [], NOW);
    const refusal = hibernationRefusal(blocked);
    expect(refusal).toMatch(
      /^shoot cannot be hibernated because HibernationPossible is False: The shoot can probably not be woken up/,
    );
    expect(refusal).toContain('webhook "validate.policy.example.com"');
  });

  it("allows hibernation when HibernationPossible is True, absent, or there are no constraints", () => {
    expect(hibernationRefusal(shootConstraints([], [], NOW))).toBeUndefined();
    expect(hibernationRefusal([])).toBeUndefined();
    expect(hibernationRefusal(undefined)).toBeUndefined();
    expect(hibernationRefusal([{ type: "HibernationPossible", status: "Unknown" }])).toBeUndefined();
  });

  it("is not refused for other False constraints", () => {
    const constraints: Condition[] = [
      { type: "HibernationPossible", status: "True" },
      { type: "MaintenancePreconditionsSatisfied", status: "False", message: "x" },
      { type: "CACertificateValiditiesAcceptable", status: "False", message: "y" },
    ];
    expect(hibernationRefusal(constraints)).toBeUndefined();
  });

  it("still refuses when the False condition has no message", () => {
    expect(hibernationRefusal([{ type: "HibernationPossible", status: "False" }])).toBe(
      "shoot cannot be hibernated because HibernationPossible is False:",
    );
  });
});
