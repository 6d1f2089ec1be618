// GET /api/v1/me: who the caller is and which roles they hold where, so the pages can say what
// they may do before they try.
import type { Binding } from "./roles.ts";

/** A role and where it holds; a project's binding also names the project's namespace. */
export interface MeBinding extends Binding {
  /** The namespace of the project in `scope` (absent for the landscape, or a project not found). */
  readonly namespace?: string;
}

export interface MeAnswer {
  readonly kind: "user" | "token" | "admin-token";
  readonly name: string;
  readonly email?: string;
  /** A person's company groups (from their OIDC sign-in), which may bring roles. */
  readonly groups?: readonly string[];
  /**
   * A person's way in: a session (signed in at /sign-in, which they can end), or "proxy" (the
   * company's trusted reverse proxy vouches for them on every request; signing out is its affair).
   */
  readonly via?: "session" | "proxy";
  /** The name the audit log records for their changes. */
  readonly actor: string;
  readonly bindings: readonly MeBinding[];
}
