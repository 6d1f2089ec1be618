"use client";

// PLACEHOLDER (issue 27): the shoot's worker nodes, pool by pool, and each pool's roll (GET .../nodes).
import type { Shoot } from "@/lib/ui/api-types";

export function ShootNodesPanel(_props: { shoot: Shoot }) {
  return null;
}
