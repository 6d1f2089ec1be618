"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function MaintenanceEditor({ shoot }: { shoot: Shoot }) {
  return <div data-todo="MaintenanceEditor">{shoot.metadata.name}</div>;
}
