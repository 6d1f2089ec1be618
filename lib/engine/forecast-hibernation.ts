// The forecast's "lands while it sleeps" mark: an update whose moment falls while the shoot's
// hibernation schedules keep it hibernated. Gardener's maintenance controller does not skip a
// hibernated shoot: it updates the spec in the window as always (only the etcd encryption key
// rotation waits); the gardenlet's reconcile keeps the workers at zero, and the nodes come up
// with the new versions when the shoot wakes. So the item stays in the forecast, marked. Both the
// engine's forecast and the stored one mark their items here, so they stay equal.
import type { Shoot } from "../gardener/types.ts";
import type { ForecastItem } from "./forecast.ts";
import { scheduledHibernatedAt, validateHibernationSchedules } from "./hibernation-schedule.ts";
import { shootHibernationSchedules } from "./scheduled-hibernation.ts";

/**
 * The items, those at a moment the schedules keep the shoot hibernated marked `whileHibernated`.
 * Before the schedules' first moment, spec.hibernation.enabled decides. Only shoots with valid
 * schedules are marked (the others' items come back as they were).
 */
export function markWhileHibernated<T extends { readonly at: number; readonly item: ForecastItem }>(
  shoot: Shoot,
  items: T[],
): T[] {
  const schedules = shootHibernationSchedules(shoot);
  if (schedules.length === 0 || items.length === 0) return items;
  if (validateHibernationSchedules(schedules).length > 0) return items;
  const enabled = shoot.spec.hibernation?.enabled === true;
  return items.map((i) => {
    const asleep = scheduledHibernatedAt(schedules, new Date(i.at)) ?? enabled;
    return asleep ? { ...i, item: { ...i.item, whileHibernated: true } } : i;
  });
}
