// GET /api/v1/me: who the caller is and which roles they hold where, so the pages can say what
// they may do before they try.
import type { Binding } from "./roles.ts";

export interface MeAnswer {
  readonly kind: "user" | "token" | "admin-token";
  readonly name: string;
  readonly email?: string;
  /** The name the audit log records for their changes. */
  readonly actor: string;
  readonly bindings: readonly Binding[];
}
