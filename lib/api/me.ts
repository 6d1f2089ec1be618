// GET /api/v1/me: who the caller is and which roles they hold where, so the pages can say what
// they may do before they try.
import { z } from "zod";
import { component } from "./components.ts";
import { type Binding, ROLES } from "./roles.ts";
import { describes } from "./schema-agreement.ts";

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

export const meAnswerSchema = describes<MeAnswer>()(
  component(
    "Me",
    z.object({
      kind: z.enum(["user", "token", "admin-token"]),
      name: z.string(),
      email: z.string().optional(),
      groups: z.array(z.string()).optional(),
      via: z.enum(["session", "proxy"]).optional(),
      actor: z.string(),
      bindings: z.array(z.object({ role: z.enum(ROLES), scope: z.string(), namespace: z.string().optional() })),
    }),
  ),
);
