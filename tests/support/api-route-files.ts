// The route files of app/api/v1 as written: each one's path as an OpenAPI template
// (`[namespace]` becomes `{namespace}`) and, per exported method, what it asks of the caller
// (route()'s `need` and `project`, or publicRoute).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface RouteMethod {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** route()'s need ("read", "operate", "administer", "signed-in"), or "public". */
  readonly need: string;
  /** route()'s project option ("namespace", "any"), when given. */
  readonly project?: string;
}

export interface RouteFile {
  readonly template: string;
  readonly methods: readonly RouteMethod[];
}

const EXPORTED = /export const (GET|POST|PUT|PATCH|DELETE) = (publicRoute|route)\b[^(]*\(\s*(\{[^}]*\})?/g;

export function apiRouteFiles(): RouteFile[] {
  const root = path.resolve(import.meta.dirname, "../../app/api/v1");
  const found: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const methods = [...readFileSync(full, "utf8").matchAll(EXPORTED)].map(([, method, kind, options]) => ({
          method: method.toLowerCase() as RouteMethod["method"],
          need: kind === "publicRoute" ? "public" : (/need: "([^"]+)"/.exec(options ?? "")?.[1] ?? "?"),
          project: /project: "([^"]+)"/.exec(options ?? "")?.[1],
        }));
        const relative = path.relative(root, dir).replace(/\[(\w+)\]/g, "{$1}");
        found.push({ template: `/api/v1/${relative}`, methods });
      }
    }
  };
  walk(root);
  return found;
}
