"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: "Maintain now" and "Update version" buttons with their dialogs.
export function ShootActions({ shoot }: { shoot: Shoot }) {
  return <div data-todo="ShootActions">{shoot.metadata.name}</div>;
}
