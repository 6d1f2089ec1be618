// A validation error in the shape of Kubernetes' field.Error, so that messages read like the
// API server's: `spec.kubernetes.versions[2].expirationDate: Invalid value: ...`.
export type FieldErrorType = "Required" | "Invalid" | "Forbidden" | "Duplicate" | "NotSupported" | "NotFound";

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly detail: string;
  readonly value?: unknown;
}
