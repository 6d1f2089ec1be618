"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function ExpiryOutlook({ shoot }: { shoot: Shoot }) {
  return <div data-todo="ExpiryOutlook">{shoot.metadata.name}</div>;
}
