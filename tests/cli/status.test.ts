// `almanac status`: the shoot.gardener.cloud/status label (Gardener:
// pkg/utils/gardener/shoot_status.go, ComputeShootStatus).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { almanacJson, fixture, ROOT } from "./run-almanac.ts";

interface StatusOutput {
  items: { namespace: string; name: string; status: string }[];
}

describe("status", () => {
  it("prints namespace, name and label of every shoot in input order", () => {
    const out = almanacJson<StatusOutput>(["status", "-f", fixture("status.yaml")]);
    expect(out).toEqual({
      items: [
        // no lastOperation: healthy, conditions do not matter
        { namespace: "garden-a", name: "no-last-operation", status: "healthy" },
        // Create not yet succeeded: only lastErrors count
        { namespace: "garden-a", name: "creating", status: "healthy" },
        { namespace: "garden-a", name: "create-failed", status: "unhealthy" },
        // Delete: only lastErrors count
        { namespace: "garden-a", name: "deleting", status: "healthy" },
        { namespace: "garden-a", name: "delete-errors", status: "unhealthy" },
        // otherwise the worst condition, worsened by the operation state
        { namespace: "garden-b", name: "all-true", status: "healthy" },
        { namespace: "garden-b", name: "progressing", status: "progressing" },
        { namespace: "garden-b", name: "unknown-cond", status: "unknown" },
        { namespace: "garden-b", name: "processing-errors", status: "unhealthy" },
        { namespace: "garden-b", name: "reconcile-failed", status: "unhealthy" },
        // lastErrors are ignored once the operation is not Processing
        { namespace: "garden-b", name: "succeeded-with-errors", status: "healthy" },
        { namespace: "garden-b", name: "created-cond-false", status: "unhealthy" },
        // "" is not a known condition status: unhealthy
        { namespace: "garden-b", name: "empty-cond-status", status: "unhealthy" },
        // no namespace: ""; no conditions: healthy
        { namespace: "", name: "no-namespace", status: "healthy" },
      ],
    });
  });

  it("labels shoots from several files and standard input, without maintaining them", () => {
    const json = readFileSync(path.join(ROOT, fixture("list.json")), "utf8");
    const out = almanacJson<StatusOutput>(
      ["status", "-f", fixture("k8s-stuck.yaml"), "-f", "-", "-f", fixture("images-gardenlinux.yaml")],
      0,
      { input: json },
    );
    expect(out.items).toEqual([
      { namespace: "garden-prod", name: "stuck", status: "healthy" },
      { namespace: "garden-json", name: "json-b", status: "healthy" },
      { namespace: "garden-json", name: "json-a", status: "healthy" },
      { namespace: "garden-images", name: "glx-auto", status: "healthy" },
      { namespace: "garden-images", name: "glx-latest", status: "healthy" },
      { namespace: "garden-images", name: "glx-expired", status: "healthy" },
    ]);
  });
});
