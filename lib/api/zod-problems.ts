// zod's issues as field problems: `spec.provider.workers[0].machine` style paths, and a type that
// tells an unknown field from a wrong type from a bad value.
import type { z } from "zod";
import type { FieldProblem } from "./problem.ts";

function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function zodProblems(error: z.ZodError, prefix = ""): FieldProblem[] {
  return error.issues.flatMap((issue): FieldProblem[] => {
    const field = fieldPath(prefix, issue.path);
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          field: fieldPath(field, [key]),
          type: "Unknown",
          detail: `unknown field "${key}"${field ? ` in ${field}` : ""}; it cannot be set here`,
        }));
      case "invalid_type":
        // zod leaves the input out of issues; its message ends in "received undefined" when absent.
        return [
          {
            field,
            type: /received undefined$/.test(issue.message) ? "Required" : "TypeMismatch",
            detail: issue.message,
          },
        ];
      default:
        return [{ field, type: "Invalid", detail: issue.message }];
    }
  });
}
