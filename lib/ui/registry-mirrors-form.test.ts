// The registry mirrors form: read from the shoot, written back as the extension's MirrorConfig
// (or its removal), with the engine's problems at the inputs they are about.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import {
  configOf,
  describeField,
  emptyMirror,
  fieldPaths,
  formFromShoot,
  formProblems,
  mirrorsPart,
  mirrorsPatch,
} from "./registry-mirrors-form.ts";

const config = {
  apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
  kind: "MirrorConfig",
  mirrors: [
    {
      upstream: "quay.io",
      hosts: [{ host: "https://q.example.com", capabilities: ["resolve", "pull"], caBundleSecretReferenceName: "ca" }],
    },
  ],
};
const shoot = (providerConfig?: unknown): Shoot => ({
  metadata: { name: "s" },
  spec: {
    kubernetes: { version: "1.31.1" },
    ...(providerConfig !== undefined ? { extensions: [{ type: "registry-mirror", providerConfig }] } : {}),
  },
});

describe("the registry mirrors form", () => {
  it("reads the shoot's mirrors and writes them back, keeping what it does not edit", () => {
    const rows = formFromShoot(shoot(config));
    expect(rows.map((r) => r.upstream)).toEqual(["quay.io"]);
    expect(configOf(rows).mirrors[0].hosts[0]).toEqual({
      host: "https://q.example.com",
      capabilities: ["pull", "resolve"],
      caBundleSecretReferenceName: "ca",
    });
  });

  it("removes the extension when no mirror is left, and guards the patch by resourceVersion", () => {
    expect(mirrorsPatch([], "7")).toEqual({
      metadata: { resourceVersion: "7" },
      spec: { extensions: [{ type: "registry-mirror", providerConfig: null }] },
    });
    expect(mirrorsPart(shoot())).toBeNull();
    // An unreadable configuration is not "no mirrors".
    expect(mirrorsPart(shoot("[plugins]"))).toBe("[plugins]");
  });

  it("places the engine's problems at the inputs by their field paths", () => {
    const row = emptyMirror();
    const rows = [{ ...row, upstream: "https://docker.io", hosts: [{ ...row.hosts[0], host: "mirror.example.com" }] }];
    const paths = fieldPaths(rows);
    const problems = formProblems(rows);
    expect(problems.map((p) => Object.keys(paths).find((k) => paths[k] === p.field))).toEqual([
      `${row.key}.upstream`,
      `${row.hosts[0].key}.host`,
    ]);
    expect(describeField(problems[1].field, rows)).toBe("https://docker.io, host 1");
    expect(formProblems([])).toEqual([]);
  });
});
