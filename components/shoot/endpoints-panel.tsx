"use client";

// PLACEHOLDER (issue 27):
// how the shoot's API server is reached (SNI on 443, apiserver-proxy on 8443, the reversed VPN on 8132).
import type { Shoot } from "@/lib/ui/api-types";

export function EndpointsPanel(_props: { shoot: Shoot }) {
  return null;
}
