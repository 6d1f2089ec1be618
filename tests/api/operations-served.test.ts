// The operations (lib/api/operations) are exactly what app/api/v1 serves: every route file's
// exports are handlers made by route()/publicRoute() from an operation of the same method and
// path, and every operation is served by one. The handlers are imported and asked, not read as text.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "../../lib/api/operations/index.ts";
import { operationOf } from "../../lib/http/route.ts";

const V1 = path.resolve(import.meta.dirname, "../../app/api/v1");
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** Every route.ts under app/api/v1, with its path as an OpenAPI template ([name] becomes {name}). */
function routeFiles(): { file: string; template: string }[] {
  return readdirSync(V1, { recursive: true, encoding: "utf8" })
    .filter((entry) => path.basename(entry) === "route.ts")
    .map((entry) => {
      const folder = path.dirname(entry).split(path.sep).join("/");
      return {
        file: path.join(V1, entry),
        template: `/api/v1/${folder.replaceAll("[", "{").replaceAll("]", "}")}`,
      };
    });
}

describe("the served operations", () => {
  it("are each route file's exports, each made from the operation of its method and path", async () => {
    const served: string[] = [];
    for (const { file, template } of routeFiles()) {
      const module = (await import(file)) as Record<string, unknown>;
      for (const [name, handler] of Object.entries(module)) {
        expect(METHODS.has(name), `${template} exports ${name}`).toBe(true);
        const op = operationOf(handler);
        expect(op, `${name} ${template} is not made from an operation`).toBeDefined();
        expect(`${op!.method.toUpperCase()} ${op!.path}`).toBe(`${name} ${template}`);
        served.push(op!.operationId);
      }
    }
    expect(served.length).toBeGreaterThan(30);
    expect(served.sort()).toEqual(API_OPERATIONS.map((op) => op.operationId).sort());
  });

  it("have unique ids and unique method-and-path pairs", () => {
    expect(new Set(API_OPERATIONS.map((op) => op.operationId)).size).toBe(API_OPERATIONS.length);
    expect(new Set(API_OPERATIONS.map((op) => `${op.method} ${op.path}`)).size).toBe(API_OPERATIONS.length);
  });
});
