// Some demo shoots pull through registry mirrors (the registry-mirror extension), so the page has
// mirrors to show and edit. Chosen from the shoot's uid, never from the shared random streams, so
// that every other part of shoot i stays what it was.
import { crc32 } from "../engine/crc32.ts";
import { MIRROR_API_VERSION, MIRROR_KIND, REGISTRY_MIRROR_EXTENSION } from "../engine/registry-mirrors.ts";
import type { ShootExtension } from "../gardener/types.ts";

const CONFIGS = [
  [{ upstream: "docker.io", hosts: [{ host: "https://mirror.gcr.io", capabilities: ["pull"] }] }],
  [
    {
      upstream: "docker.io",
      hosts: [
        { host: "https://harbor.internal.example.com", capabilities: ["pull", "resolve"] },
        { host: "https://mirror.gcr.io" },
      ],
    },
    { upstream: "ghcr.io", hosts: [{ host: "https://harbor.internal.example.com/v2/ghcr", overridePath: true }] },
  ],
  [{ upstream: "quay.io", hosts: [{ host: "https://quay-mirror.example.com:8443", capabilities: ["pull"] }] }],
];

/** The shoot's spec.extensions: a registry-mirror extension for about one shoot in five, else none. */
export function demoExtensions(uid: string): ShootExtension[] | undefined {
  const draw = crc32(`registry-mirror|${uid}`);
  if (draw % 5 !== 0) return undefined;
  const mirrors = CONFIGS[Math.floor(draw / 5) % CONFIGS.length];
  return [
    {
      type: REGISTRY_MIRROR_EXTENSION,
      providerConfig: { apiVersion: MIRROR_API_VERSION, kind: MIRROR_KIND, mirrors: structuredClone(mirrors) },
    },
  ];
}
