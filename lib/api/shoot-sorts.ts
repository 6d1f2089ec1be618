// The orders GET /api/v1/shoots can list the fleet in (`sort=<field>`, `-<field>` descending):
// the query's validation, the stored sort columns and the fleet page's sort menu share them.

export const SHOOT_SORTS = [
  "name",
  "namespace",
  "kubernetesVersion",
  "status",
  "expiry",
  "nextMaintenance",
  "created",
] as const;
export type ShootSort = (typeof SHOOT_SORTS)[number];
