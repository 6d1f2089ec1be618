"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function ShootHealth({ shoot }: { shoot: Shoot }) {
  return <div data-todo="ShootHealth">{shoot.metadata.name}</div>;
}
