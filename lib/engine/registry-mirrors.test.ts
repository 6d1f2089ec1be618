// Registry mirrors as the registry-mirror extension validates them and gardener-node-agent writes
// them: field paths and reasons, the deprecated registry.mirrors pattern, the hosts.toml preview.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import {
  hostsTomlFiles,
  isDeprecatedPattern,
  MIRROR_API_VERSION,
  MIRROR_CONFIG_FIELD,
  registryMirrorChangeProblems,
  validateMirrorConfig,
} from "./registry-mirrors.ts";

const config = (mirrors: unknown) => ({ apiVersion: MIRROR_API_VERSION, kind: "MirrorConfig", mirrors });
const F = MIRROR_CONFIG_FIELD;
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe("validateMirrorConfig", () => {
  it("accepts upstreams with ports and hosts with paths, capabilities pull and resolve", () => {
    expect(
      validateMirrorConfig(
        config([
          { upstream: "docker.io", hosts: [{ host: "https://mirror.gcr.io", capabilities: ["pull"] }] },
          {
            upstream: "my-registry.example.com:5000",
            hosts: [{ host: "http://harbor.example.com:8080/v2/k8s", capabilities: ["pull", "resolve"] }],
          },
        ]),
      ),
    ).toEqual([]);
  });

  it("names the host field of a host without a scheme, and why", () => {
    const problems = validateMirrorConfig(
      config([{ upstream: "docker.io", hosts: [{ host: "https://a.example.com" }, { host: "mirror.example.com" }] }]),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        type: "Invalid",
        field: `${F}.mirrors[0].hosts[1].host`,
        detail: "url must start with 'http://' or 'https://' scheme",
      }),
    ]);
    expect(F).toBe("spec.extensions[type=registry-mirror].providerConfig");
  });

  it("refuses an upstream with a scheme, a path, upper case or a port out of range", () => {
    const problems = validateMirrorConfig(
      config([
        { upstream: "https://docker.io", hosts: [{ host: "https://m.example.com" }] },
        { upstream: "Quay.io", hosts: [{ host: "https://m.example.com" }] },
        { upstream: "ghcr.io:70000", hosts: [{ host: "https://m.example.com" }] },
      ]),
    );
    expect(fields(problems)).toEqual([
      `${F}.mirrors[0].upstream`,
      `${F}.mirrors[1].upstream`,
      `${F}.mirrors[2].upstream`,
    ]);
    expect(problems[2].detail).toContain("port '70000' is not valid");
  });

  it("refuses user info, query, fragment and dot segments in a host URL", () => {
    const hosts = [
      "https://user:pw@m.example.com",
      "https://m.example.com/?x=1",
      "https://m.example.com/#top",
      "https://m.example.com/a/../b",
      "ftp://m.example.com",
    ].map((host) => ({ host }));
    const problems = validateMirrorConfig(config([{ upstream: "docker.io", hosts }]));
    expect(problems.map((p) => [p.field.replace(`${F}.mirrors[0].`, ""), p.detail])).toEqual([
      ["hosts[0].host", "url must not contain user info"],
      ["hosts[1].host", "url must not contain query parameters"],
      ["hosts[2].host", "url must not contain a fragment"],
      ["hosts[3].host", "url path must not contain '..'"],
      ["hosts[4].host", "url must start with 'http://' or 'https://' scheme"],
    ]);
  });

  it("allows pull and resolve only: push is not supported, as in the extension", () => {
    const problems = validateMirrorConfig(
      config([
        { upstream: "docker.io", hosts: [{ host: "https://m.example.com", capabilities: ["pull", "push", "pull"] }] },
      ]),
    );
    expect(problems.map((p) => [p.type, p.field])).toEqual([
      ["NotSupported", `${F}.mirrors[0].hosts[0].capabilities`],
      ["Duplicate", `${F}.mirrors[0].hosts[0].capabilities[2]`],
    ]);
    expect(problems[0].detail).toContain('supported values: "pull", "resolve"');
  });

  it("refuses a duplicate upstream, a duplicate host, and empty lists", () => {
    const problems = validateMirrorConfig(
      config([
        { upstream: "docker.io", hosts: [{ host: "https://a.example.com" }, { host: "https://a.example.com" }] },
        { upstream: "docker.io", hosts: [] },
      ]),
    );
    expect(problems.map((p) => [p.type, p.field])).toEqual([
      ["Duplicate", `${F}.mirrors[0].hosts[1].host`],
      ["Duplicate", `${F}.mirrors[1].upstream`],
      ["Required", `${F}.mirrors[1].hosts`],
    ]);
    expect(fields(validateMirrorConfig(config([])))).toEqual([`${F}.mirrors`]);
  });

  it("refuses a wrong apiVersion or kind, unknown fields, and a CA bundle the shoot does not reference", () => {
    const problems = validateMirrorConfig({
      apiVersion: "v1",
      kind: "RegistryConfig",
      mirrors: [
        {
          upstream: "quay.io",
          hosts: [{ host: "https://m.example.com", caBundleSecretReferenceName: "ca", insecure: true }],
        },
      ],
    });
    expect(fields(problems)).toEqual([
      `${F}.apiVersion`,
      `${F}.kind`,
      `${F}.mirrors[0].hosts[0].insecure`,
      `${F}.mirrors[0].hosts[0].caBundleSecretReferenceName`,
    ]);
    expect(
      validateMirrorConfig(
        config([
          { upstream: "quay.io", hosts: [{ host: "https://m.example.com", caBundleSecretReferenceName: "ca" }] },
        ]),
        F,
        ["ca"],
      ),
    ).toEqual([]);
  });

  it("requires a providerConfig", () => {
    expect(validateMirrorConfig(undefined)).toEqual([expect.objectContaining({ type: "Required", field: F })]);
  });
});

describe("the deprecated registry.mirrors pattern", () => {
  const TOML = `version = 2

[plugins."io.containerd.grpc.v1.cri".registry]
  [plugins."io.containerd.grpc.v1.cri".registry.mirrors]
    [plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]
      endpoint = ["https://public-mirror.example.com"]
`;

  it("refuses pasted config.toml with the reason and the hosts-directory equivalent", () => {
    const problems = validateMirrorConfig(TOML);
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe(F);
    expect(problems[0].detail).toContain("deprecated in containerd");
    expect(problems[0].detail).toContain('config_path = "/etc/containerd/certs.d"');
    expect(problems[0].detail).toContain(
      '[{"upstream":"docker.io","hosts":[{"host":"https://public-mirror.example.com"}]}]',
    );
  });

  it("recognizes the same keys in a providerConfig object", () => {
    const nested = {
      plugins: {
        "io.containerd.grpc.v1.cri": { registry: { mirrors: { "quay.io": { endpoint: ["https://q.example.com"] } } } },
      },
    };
    expect(isDeprecatedPattern(nested)).toBe(true);
    expect(isDeprecatedPattern({ mirrors: { "docker.io": { endpoint: ["https://m.example.com"] } } })).toBe(true);
    expect(isDeprecatedPattern({ registry: { configs: {} } })).toBe(true);
    expect(validateMirrorConfig(nested)[0].detail).toContain('"upstream":"quay.io"');
    expect(isDeprecatedPattern(config([{ upstream: "docker.io", hosts: [{ host: "https://m.example.com" }] }]))).toBe(
      false,
    );
  });
});

describe("hostsTomlFiles", () => {
  it("writes one hosts.toml per upstream: docker.io's server is registry-1.docker.io, capabilities default to pull", () => {
    const files = hostsTomlFiles({
      mirrors: [
        {
          upstream: "docker.io",
          hosts: [{ host: "http://public-mirror.example.com", capabilities: ["pull", "resolve"] }],
        },
        {
          upstream: "quay.io",
          hosts: [
            { host: "https://private-mirror.internal", caBundleSecretReferenceName: "ca" },
            { host: "https://harbor.example.com/v2/quay", overridePath: true },
          ],
        },
      ],
    });
    expect(files.map((f) => f.path)).toEqual([
      "/etc/containerd/certs.d/docker.io/hosts.toml",
      "/etc/containerd/certs.d/quay.io/hosts.toml",
    ]);
    expect(files[0].content).toBe(
      `# managed by gardener-node-agent
server = "https://registry-1.docker.io"

[host."http://public-mirror.example.com"]
  capabilities = ["pull", "resolve"]
`,
    );
    expect(files[1].content).toBe(
      `# managed by gardener-node-agent
server = "https://quay.io"

[host."https://private-mirror.internal"]
  capabilities = ["pull"]
  ca = ["/etc/containerd/certs.d/quay.io/private-mirror.internal-ca-bundle.pem"]

[host."https://harbor.example.com/v2/quay"]
  capabilities = ["pull"]
  override_path = true
`,
    );
  });
});

describe("registryMirrorChangeProblems", () => {
  const shoot = (extensions?: Shoot["spec"]["extensions"], cri?: string): Shoot => ({
    metadata: { name: "s" },
    spec: {
      kubernetes: { version: "1.31.1" },
      provider: { workers: [{ name: "a", machine: { type: "m" }, ...(cri ? { cri: { name: cri } } : {}) }] },
      ...(extensions ? { extensions } : {}),
    },
  });
  const valid = {
    type: "registry-mirror",
    providerConfig: config([{ upstream: "docker.io", hosts: [{ host: "https://m.example.com" }] }]),
  };

  it("judges only a changed extension, and asks for containerd on every pool", () => {
    const broken = { type: "registry-mirror", providerConfig: config([]) };
    expect(registryMirrorChangeProblems(shoot([broken]), shoot([broken]))).toEqual([]);
    expect(fields(registryMirrorChangeProblems(shoot(), shoot([broken])))).toEqual([`${F}.mirrors`]);
    expect(registryMirrorChangeProblems(shoot(), shoot([valid]))).toEqual([]);
    expect(fields(registryMirrorChangeProblems(shoot(), shoot([valid], "docker")))).toEqual([
      "spec.provider.workers[0].cri.name",
    ]);
  });
});
