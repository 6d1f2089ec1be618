// The simulated garden's read access: it has no RBAC of its own, so it lets everyone read
// everything and Almanac's roles alone decide, as before a live garden existed. It answers at
// once, without a query or a promise to wait for.
import type { GardenAccess } from "../../auth/garden-access.ts";

export const embeddedGardenAccess: GardenAccess = {
  readableNamespaces: () => "all",
  mayRead: () => true,
};
