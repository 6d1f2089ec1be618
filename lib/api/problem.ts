// An error answer of /api/v1 (application/problem+json, RFC 9457): what lib/http/route.ts writes
// and lib/ui/api.ts reads, so that forms can show each field problem beside its field.
import { z } from "zod";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export interface FieldProblem {
  /** Path of the offending field, e.g. `spec.maintenance.timeWindow.begin` or `query.limit`. */
  readonly field: string;
  /** Kubernetes-style kind of problem: Required, Invalid, Forbidden, NotSupported, Unknown, TypeMismatch... */
  readonly type: string;
  readonly detail: string;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The path that was asked for. */
  readonly instance: string;
  readonly requestId: string;
  /** Absent when no single field is to blame. */
  readonly errors?: readonly FieldProblem[];
  /** Extensions of some answers, e.g. currentResourceVersion on a 409. */
  readonly [extension: string]: unknown;
}

export const fieldProblemSchema = describes<FieldProblem>()(
  component("FieldProblem", z.object({ field: z.string(), type: z.string(), detail: z.string() })),
);

export const problemSchema = describes<Problem>()(
  component(
    "Problem",
    z
      .looseObject({
        type: z.string(),
        title: z.string(),
        status: z.int().min(400).max(599),
        detail: z.string(),
        instance: z.string(),
        requestId: z.string(),
        errors: z.array(fieldProblemSchema).optional(),
      })
      .meta({ description: "An error answer (RFC 9457), as application/problem+json." }),
  ),
);
