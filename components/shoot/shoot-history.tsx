"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function ShootHistory({ shoot }: { shoot: Shoot }) {
  return <div data-todo="ShootHistory">{shoot.metadata.name}</div>;
}
