// A user's shoot patch as the garden is sent it: only the fields the user named, guarded by the
// garden's resourceVersion of the shoot the engine judged (the garden answers 409 when its shoot
// has moved on since). The user's patch is a merge patch already (lib/engine/shoot-patch.ts), but
// for the worker pools, which it matches by name; in a merge patch spec.provider.workers would be
// a plain list that replaces the garden's whole list. So a patch that names pools goes as a JSON
// patch instead: the resourceVersion set to the one judged (Kubernetes refuses a patched object
// whose resourceVersion is not the current one with 409), a `test` that each pool is still at
// the index it had, and an operation for each field that changes (a pool switched to another
// image: its name and its version). The same goes for spec.extensions, matched by type: a `test`
// of the extension's type at its index, then its providerConfig replaced (or added) and a
// `disabled: true` removed, or the extension removed; a new one is appended (the list added when the shoot has none).
import { PatchStrategy } from "@kubernetes/client-node";
import type { ShootPatch } from "../../engine/shoot-patch.ts";
import type { ExtensionPatch } from "../../engine/shoot-extensions-patch.ts";
import type { Shoot } from "../../gardener/types.ts";
import type { GardenPatch, JsonPatchOperation } from "./garden-api.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** RFC 6901: a key inside a JSON pointer. */
const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** A merge patch's value without its nulls (what it leaves where nothing was). */
function withoutNulls(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The JSON patch operations that do what the merge patch `patch` does to `target` at `path` (RFC 7386 on RFC 6902). */
export function mergePatchOperations(path: string, patch: Json, target: unknown): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  const current = isObject(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const at = `${path}/${pointer(key)}`;
    const held = current[key];
    if (value === null) {
      if (held !== undefined) operations.push({ op: "remove", path: at });
    } else if (isObject(value) && isObject(held)) {
      operations.push(...mergePatchOperations(at, value, held));
    } else {
      const next = withoutNulls(value);
      if (isObject(next) && Object.keys(next).length === 0 && held === undefined) continue;
      if (!sameJson(next, held)) operations.push({ op: held === undefined ? "add" : "replace", path: at, value: next });
    }
  }
  return operations;
}

/** The patch for the garden; `gardenResourceVersion` is the garden's version of `before`. */
export function shootGardenPatch(before: Shoot, patch: ShootPatch, gardenResourceVersion: string): GardenPatch {
  const annotations = patch.metadata?.annotations;
  const { maintenance, kubernetes, hibernation, tolerations, provider } = patch.spec ?? {};
  // spec.tolerations is a whole list in both patch types: a merge patch replaces it (null
  // removes it), a JSON patch adds, replaces or removes it at /spec/tolerations.
  const spec: Json = Object.fromEntries(
    Object.entries({ maintenance, kubernetes, hibernation, tolerations }).filter(([, v]) => v !== undefined),
  );
  const pools = provider?.workers ?? [];
  const extensions = patch.spec?.extensions ?? [];
  if (pools.length === 0 && extensions.length === 0) {
    return {
      type: PatchStrategy.MergePatch,
      body: {
        metadata: { resourceVersion: gardenResourceVersion, ...(annotations ? { annotations } : {}) },
        ...(Object.keys(spec).length > 0 ? { spec } : {}),
      },
    };
  }
  const operations: JsonPatchOperation[] = [
    { op: "replace", path: "/metadata/resourceVersion", value: gardenResourceVersion },
    ...(annotations ? mergePatchOperations("/metadata", { annotations }, before.metadata) : []),
    ...mergePatchOperations("/spec", spec, before.spec),
  ];
  const workers = before.spec.provider?.workers ?? [];
  for (const change of pools) {
    // The engine refused a pool the shoot does not have.
    const index = workers.findIndex((w) => w.name === change.name);
    const at = `/spec/provider/workers/${index}`;
    operations.push({ op: "test", path: `${at}/name`, value: change.name });
    const { name: _name, ...fields } = change;
    operations.push(...mergePatchOperations(at, fields, workers[index]));
  }
  operations.push(...extensionOperations(before, extensions));
  return { type: PatchStrategy.JsonPatch, body: operations };
}

/** The JSON patch of the extensions a user's patch names, each matched by type (never the whole list). */
function extensionOperations(before: Shoot, changes: readonly ExtensionPatch[]): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  const list = before.spec.extensions;
  for (const { type, providerConfig } of changes) {
    const index = list?.findIndex((e) => e.type === type) ?? -1;
    const at = `/spec/extensions/${index}`;
    if (index !== -1) operations.push({ op: "test", path: `${at}/type`, value: type });
    if (providerConfig === null) {
      if (index !== -1) operations.push({ op: "remove", path: at });
    } else if (index !== -1) {
      const held = list![index].providerConfig !== undefined;
      operations.push({ op: held ? "replace" : "add", path: `${at}/providerConfig`, value: providerConfig });
      // As the engine does (shoot-extensions-patch.ts): saving a configuration enables the extension.
      if (list![index].disabled === true) operations.push({ op: "remove", path: `${at}/disabled` });
    } else if (list) {
      operations.push({ op: "add", path: "/spec/extensions/-", value: { type, providerConfig } });
    } else {
      operations.push({ op: "add", path: "/spec/extensions", value: [{ type, providerConfig }] });
    }
  }
  return operations;
}
