"use client";

import type { Shoot } from "@/lib/ui/api-types";

// Placeholder: to be built.
export function MigrationPanel({ shoot }: { shoot: Shoot }) {
  return <div data-todo="MigrationPanel">{shoot.metadata.name}</div>;
}
