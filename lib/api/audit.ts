// GET /api/v1/audit: the audit log, newest first, paged by event id.

import type { FieldChange } from "../engine/shoot-patch.ts";

export type { FieldChange };

export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly target: { readonly kind: string; readonly namespace?: string; readonly name?: string };
  readonly changes: readonly FieldChange[];
  readonly requestId?: string;
}

export interface AuditAnswer {
  readonly items: readonly AuditEvent[];
  /** The id to pass as `cursor` for older events; null on the last page. */
  readonly nextCursor: string | null;
}
