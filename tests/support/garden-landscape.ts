// A landscape (demo or hand-made) loaded into the stand-in garden as Gardener's controllers would
// have made it: the garden assigns each object's resourceVersion.
import type { Landscape } from "../../lib/demo/landscape.ts";
import type { StandInGarden } from "./stand-in-garden.ts";

const withoutVersion = <T extends { metadata: { resourceVersion?: string } }>(object: T) => {
  const { resourceVersion: _rv, ...metadata } = object.metadata;
  return { ...object, metadata };
};

export function putLandscape(
  garden: StandInGarden,
  landscape: Pick<Landscape, "cloudProfiles" | "namespacedCloudProfiles" | "seeds" | "projects" | "shoots">,
): void {
  for (const p of landscape.cloudProfiles) garden.put("CloudProfile", withoutVersion(p));
  for (const p of landscape.namespacedCloudProfiles ?? []) garden.put("NamespacedCloudProfile", withoutVersion(p));
  for (const s of landscape.seeds) garden.put("Seed", withoutVersion(s));
  for (const p of landscape.projects) garden.put("Project", withoutVersion(p));
  for (const s of landscape.shoots) garden.put("Shoot", withoutVersion(s));
}

/** Reads until `ok` says yes, or fails after `timeoutMs` with the last value read. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  ok: (value: T) => boolean,
  timeoutMs = 8_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > until) throw new Error(`Not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}
