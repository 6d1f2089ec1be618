"use client";

// PLACEHOLDER (issue 27):
// the shoot's containerd registry mirrors (the registry-mirror extension), editable, with the hosts.toml they make.
import type { Shoot } from "@/lib/ui/api-types";

export function RegistryMirrorsPanel(_props: { shoot: Shoot }) {
  return null;
}
