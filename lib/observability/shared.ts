// State that must be one per process. Next bundles its own copy of every module a route handler
// imports, while scripts/web-worker.mjs and scripts/start.mjs import the source: without one
// place for them, a process would hold two loggers, two request stores and two metric
// registries, and a scrape would miss what the other copy counted. So each lives on globalThis,
// under a name only this module uses, made by whichever copy asks first.
const HOLDER = Symbol.for("almanac.observability");
const holder = globalThis as { [HOLDER]?: Map<string, unknown> };

/** The process's one `name`, made by `make` the first time any copy of this module asks. */
export function processWide<T>(name: string, make: () => T): T {
  const values = (holder[HOLDER] ??= new Map());
  if (!values.has(name)) values.set(name, make());
  return values.get(name) as T;
}
