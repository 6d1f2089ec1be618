// An error answer of /api/v1 (application/problem+json, RFC 9457): what lib/http/route.ts writes
// and lib/ui/api.ts reads, so that forms can show each field problem beside its field.

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
