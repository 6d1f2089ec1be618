// Version lifecycles as Gardener reads them, through `bin/almanac` and its YAML reading: an empty
// `startTime:` (YAML null) is a stage that has always started, and a machine image version not
// yet available is refused by the API server's admission when maintenance updates to it.
import { describe, expect, it } from "vitest";
import { almanacJson, byName } from "./run-almanac.ts";

const NOW = "2026-11-27T22:30:00Z";

const PROFILE = `apiVersion: core.gardener.cloud/v1beta1
kind: CloudProfile
metadata:
  name: aws
spec:
  type: aws
  kubernetes:
    versions:
      - version: 1.31.2
        lifecycle:
          - classification: preview
            startTime:
          - classification: supported
            startTime: "2027-01-01T00:00:00Z"
      - version: 1.31.1
  machineImages:
    - name: gardenlinux
      updateStrategy: major
      versions:
        - version: 1.3.0
          lifecycle:
            - classification: supported
              startTime: "2027-01-01T00:00:00Z"
        - version: 1.2.0
  machineTypes:
    - name: m5.large
`;

const SHOOT = (name: string, auto: { kubernetesVersion: boolean; machineImageVersion: boolean }) => `---
apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata:
  name: ${name}
  namespace: garden-dev
spec:
  cloudProfileName: aws
  kubernetes:
    version: 1.31.1
  provider:
    type: aws
    workers:
      - name: pool
        machine:
          type: m5.large
          image:
            name: gardenlinux
            version: 1.2.0
  maintenance:
    timeWindow:
      begin: 220000+0000
      end: 230000+0000
    autoUpdate:
      kubernetesVersion: ${auto.kubernetesVersion}
      machineImageVersion: ${auto.machineImageVersion}
`;

interface ValidateOutput {
  items: { kind: string; name: string; errors: unknown[] }[];
}

describe("lifecycles through the CLI", () => {
  it("validate accepts an empty startTime on the leading stage", () => {
    const out = almanacJson<ValidateOutput>(["validate", "-f", "-", "--now", NOW], 0, { input: PROFILE });
    expect(out.items).toEqual([{ kind: "CloudProfile", name: "aws", errors: [] }]);
  });

  it("maintain reads an empty startTime as always started: the preview 1.31.2 is not an auto-update target", () => {
    const out = almanacJson(["maintain", "-f", "-", "--now", NOW], 0, {
      input: PROFILE + SHOOT("k8s", { kubernetesVersion: true, machineImageVersion: false }),
    });
    expect(byName(out, "k8s").spec.kubernetes.version).toBe("1.31.1");
  });

  it("maintain fails an image update to a version not yet available and leaves the image unchanged", () => {
    const out = almanacJson(["maintain", "-f", "-", "--now", NOW], 0, {
      input: PROFILE + SHOOT("image", { kubernetesVersion: false, machineImageVersion: true }),
    });
    const shoot = byName(out, "image");
    expect(shoot.spec.provider?.workers?.[0].machine.image).toEqual({ name: "gardenlinux", version: "1.2.0" });
    expect(shoot.status?.lastMaintenance).toMatchObject({
      state: "Failed",
      failureReason:
        'Updates to the Shoot failed to be applied: shoots.core.gardener.cloud "image" is forbidden: ' +
        'spec.provider.workers[0].machine.image: Invalid value: {"name":"gardenlinux","version":"1.3.0"}: ' +
        "machine image version 'gardenlinux:1.3.0' is expired, supported machine image versions are: [gardenlinux:1.2.0]",
    });
  });
});
