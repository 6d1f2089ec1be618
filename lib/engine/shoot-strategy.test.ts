// gardener-apiserver's shoot strategy: when an update raises metadata.generation and which
// operation annotations it consumes. The tables are those of Gardener's
// pkg/apiserver/registry/core/shoot/strategy_test.go ("#PrepareForUpdate", "generation increment").
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { ANNOTATION_OPERATION } from "./operation-annotations.ts";
import { mustIncreaseGeneration, prepareShootForUpdate } from "./shoot-strategy.ts";

function blank(): Shoot {
  return { metadata: { name: "shoot", namespace: "garden-dev", generation: 4 }, spec: { kubernetes: { version: "" } } };
}

function generationAfter(oldShoot: Shoot, newShoot: Shoot): number {
  return prepareShootForUpdate(oldShoot, newShoot).metadata.generation ?? 0;
}

describe("prepareShootForUpdate (Gardener: strategy.go, PrepareForUpdate / mustIncreaseGeneration): standard tests", () => {
  it.each<[string, ((s: Shoot) => void) | undefined, boolean]>([
    ["no change", undefined, false],
    ["only label change", (s) => (s.metadata.labels = { foo: "bar" }), false],
    ["some spec change", (s) => (s.spec.region = "foo"), true],
    ["deletion timestamp gets set", (s) => (s.metadata.deletionTimestamp = "2026-01-01T00:00:00Z"), true],
  ])("strategy_test.go: %s", (_, mutate, increase) => {
    const oldShoot = blank();
    const newShoot = structuredClone(oldShoot);
    mutate?.(newShoot);
    expect(generationAfter(oldShoot, newShoot)).toBe(increase ? 5 : 4);
  });
});

type Hibernation = Shoot["spec"]["hibernation"];
const hib = (enabled?: boolean): Hibernation => (enabled === undefined ? {} : { enabled });

describe("mustIncreaseGenerationForSpecChanges (Gardener: strategy.go): confine spec update rollout", () => {
  it.each<
    [string, boolean | undefined, boolean | undefined, Hibernation | null, Hibernation | null, boolean, boolean?]
  >([
    ["confineSpecUpdateRollout true->false", true, false, null, null, true],
    ["confineSpecUpdateRollout false->true", false, true, null, null, false],
    ["confineSpecUpdateRollout nil->false w/ additional spec change", undefined, false, null, null, true, true],
    ["confineSpecUpdateRollout true->true w/ additional spec change", true, true, null, null, false, true],
    // exceptional cases: spec.hibernation.enabled changes even if confineSpecUpdateRollout is true
    ["hibernation nil -> nil", true, true, null, null, false],
    ["hibernation nil -> false", true, true, null, hib(false), false],
    ["hibernation nil -> true", true, true, null, hib(true), true],
    ["hibernation enabled nil -> false", true, true, hib(), hib(false), false],
    ["hibernation enabled nil -> true", true, true, hib(), hib(true), true],
    ["hibernation enabled nil -> hibernation nil", true, true, hib(), null, false],
    ["hibernation enabled true -> true", true, true, hib(true), hib(true), false],
    ["hibernation enabled true -> false", true, true, hib(true), hib(false), true],
    ["hibernation enabled true -> nil", true, true, hib(true), hib(), true],
    ["hibernation enabled true -> hibernation nil", true, true, hib(true), null, true],
    ["hibernation enabled false -> true", true, true, hib(false), hib(true), true],
    ["hibernation enabled false -> false", true, true, hib(false), hib(false), false],
    ["hibernation enabled false -> nil", true, true, hib(false), hib(), false],
    ["hibernation enabled false -> hibernation nil", true, true, hib(false), null, false],
  ])("strategy_test.go: %s", (_, confineOld, confineNew, oldHibernation, newHibernation, increase, regionChange) => {
    const oldShoot = blank();
    const newShoot = blank();
    if (confineOld !== undefined) oldShoot.spec.maintenance = { confineSpecUpdateRollout: confineOld };
    if (confineNew !== undefined) newShoot.spec.maintenance = { confineSpecUpdateRollout: confineNew };
    if (oldHibernation) oldShoot.spec.hibernation = oldHibernation;
    if (newHibernation) newShoot.spec.hibernation = newHibernation;
    if (regionChange) newShoot.spec.region = "foo";
    expect(generationAfter(oldShoot, newShoot)).toBe(increase ? 5 : 4);
  });
});

describe("mustIncreaseGeneration (Gardener: strategy.go): operation annotations", () => {
  function withWorker(): Shoot {
    const s = blank();
    s.spec.provider = { type: "aws", workers: [{ name: "worker", machine: { type: "m5.large" } }] };
    s.status = { lastOperation: { type: "Reconcile", state: "" } };
    return s;
  }

  it.each<[string, string, ((s: Shoot) => void) | undefined, boolean, boolean]>([
    ["retry; last operation is failed", "retry", (s) => (s.status!.lastOperation!.state = "Failed"), true, false],
    [
      "retry; last operation is not failed",
      "retry",
      (s) => (s.status!.lastOperation!.state = "Succeeded"),
      false,
      true,
    ],
    ["retry; last operation is not set", "retry", (s) => delete s.status!.lastOperation, false, true],
    ["reconcile", "reconcile", undefined, true, false],
    ["rotate-credentials-start", "rotate-credentials-start", undefined, true, true],
    [
      "rotate-credentials-start-without-workers-rollout",
      "rotate-credentials-start-without-workers-rollout",
      undefined,
      true,
      true,
    ],
    ["rotate-credentials-complete", "rotate-credentials-complete", undefined, true, true],
    ["rotate-ssh-keypair (ssh enabled)", "rotate-ssh-keypair", undefined, true, true],
    [
      "rotate-ssh-keypair (ssh is not enabled)",
      "rotate-ssh-keypair",
      (s) => (s.spec.provider!.workers = []),
      false,
      false,
    ],
    ["rotate-observability-credentials", "rotate-observability-credentials", undefined, true, true],
    ["rotate-etcd-encryption-key", "rotate-etcd-encryption-key", undefined, true, true],
    ["rotate-etcd-encryption-key-start", "rotate-etcd-encryption-key-start", undefined, true, true],
    ["rotate-etcd-encryption-key-complete", "rotate-etcd-encryption-key-complete", undefined, true, true],
    ["rotate-ca-start", "rotate-ca-start", undefined, true, true],
    ["rotate-ca-start-without-workers-rollout", "rotate-ca-start-without-workers-rollout", undefined, true, true],
    ["rotate-ca-complete", "rotate-ca-complete", undefined, true, true],
    ["rotate-serviceaccount-key-start", "rotate-serviceaccount-key-start", undefined, true, true],
    [
      "rotate-serviceaccount-key-start-without-workers-rollout",
      "rotate-serviceaccount-key-start-without-workers-rollout",
      undefined,
      true,
      true,
    ],
    ["rotate-serviceaccount-key-complete", "rotate-serviceaccount-key-complete", undefined, true, true],
    ["rotate-rollout-workers", "rotate-rollout-workers=foo", undefined, true, true],
    ["force-in-place-update", "force-in-place-update", undefined, false, true],
  ])("strategy_test.go: %s", (_, operation, mutateOld, increase, keep) => {
    const oldShoot = withWorker();
    mutateOld?.(oldShoot);
    const newShoot = structuredClone(oldShoot);
    newShoot.metadata.annotations = { [ANNOTATION_OPERATION]: operation };
    const stored = prepareShootForUpdate(oldShoot, newShoot);
    expect(stored.metadata.generation).toBe(increase ? 5 : 4);
    if (keep) expect(stored.metadata.annotations).toHaveProperty([ANNOTATION_OPERATION], operation);
    else expect(stored.metadata.annotations).not.toHaveProperty([ANNOTATION_OPERATION]);
  });

  it("leaves `reconcile` on a failed shoot, and does not consume it together with a spec change", () => {
    const failed = withWorker();
    failed.status!.lastOperation!.state = "Failed";
    const asked = structuredClone(failed);
    asked.metadata.annotations = { [ANNOTATION_OPERATION]: "reconcile" };
    expect(mustIncreaseGeneration(failed, asked)).toEqual({ increase: false, removeOperationAnnotation: false });
    // A spec change raises the generation first; the annotation is not looked at (and stays).
    const healthy = withWorker();
    healthy.status!.lastOperation!.state = "Succeeded";
    const both = structuredClone(healthy);
    both.metadata.annotations = { [ANNOTATION_OPERATION]: "reconcile" };
    both.spec.region = "foo";
    expect(prepareShootForUpdate(healthy, both).metadata.annotations).toEqual({ [ANNOTATION_OPERATION]: "reconcile" });
  });

  it("does not modify its arguments and keeps the stored generation when nothing counts", () => {
    const oldShoot = withWorker();
    oldShoot.status!.lastOperation!.state = "Succeeded";
    const newShoot = structuredClone(oldShoot);
    newShoot.metadata.annotations = { [ANNOTATION_OPERATION]: "reconcile" };
    const copy = structuredClone(newShoot);
    prepareShootForUpdate(oldShoot, newShoot);
    expect(newShoot).toEqual(copy);
    const raised = { ...oldShoot, metadata: { ...oldShoot.metadata, generation: 9 } };
    expect(prepareShootForUpdate(oldShoot, raised).metadata.generation).toBe(4);
  });
});
