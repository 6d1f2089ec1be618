"use client";

// PLACEHOLDER (issue 27): the shoot's seed tolerations, editable, checked against its project's whitelist.
import type { Shoot } from "@/lib/ui/api-types";

export function TolerationsPanel(_props: { shoot: Shoot }) {
  return null;
}
