"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function VersionTimeline({ shoot }: { shoot: Shoot }) {
  return <div data-todo="VersionTimeline">{shoot.metadata.name}</div>;
}
