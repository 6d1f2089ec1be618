// Which case shoot number i shows: its status category, how close its Kubernetes version is to
// expiry, and its project. Spread by index rather than drawn at random, so that even the
// default 64 shoots cover every case and shoot i is the same whatever the total count.
import type { ExpiryBucket } from "./catalogue.ts";

/**
 * One cycle of a smooth weighted round robin (as nginx balances upstreams): every item appears
 * as often as its weight, spread out evenly rather than in blocks. Indexing into it by
 * `i % length` gives a mix that is exact for every full cycle and varied even for a few items.
 */
function interleave<T>(weights: readonly (readonly [T, number])[]): T[] {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const current = weights.map(() => 0);
  const cycle: T[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    weights.forEach(([, w], i) => {
      current[i] += w;
      if (current[i] > current[best]) best = i;
    });
    current[best] -= total;
    cycle.push(weights[best][0]);
  }
  return cycle;
}

export type Category = "healthy" | "reconciling" | "error" | "unknown" | "hibernated" | "creating" | "createFailed";

// Per 50 shoots: 60% healthy, 12% reconciling, 10% errors, 8% unknown, 6% hibernated, 4% creating.
const CATEGORY_CYCLE = interleave<Category>([
  ["healthy", 30],
  ["reconciling", 6],
  ["error", 5],
  ["unknown", 4],
  ["hibernated", 3],
  ["creating", 2],
]);

/** The one shoot that never got created (its slot in the cycle is a healthy one). */
const CREATE_FAILED_INDEX = 13;

export function categoryOf(index: number): Category {
  return index === CREATE_FAILED_INDEX ? "createFailed" : CATEGORY_CYCLE[index % CATEGORY_CYCLE.length];
}

// Per 25 shoots: where the control plane version sits on the expiry countdown.
export const KUBERNETES_BUCKET_CYCLE = interleave<ExpiryBucket>([
  ["supported", 10],
  ["within90", 4],
  ["within30", 3],
  ["expired", 3],
  ["within7", 2],
  ["deprecated", 2],
  ["preview", 1],
]);

export const PROJECT_CYCLE = interleave<number>([
  [0, 6],
  [1, 5],
  [2, 5],
  [3, 4],
]);
