// GET /api/v1/me: the caller as the pages need to know them.
import type { MeAnswer } from "../api/me.ts";
import { actorOf, type Principal } from "../auth/principal.ts";

export function whoAmI(principal: Principal): MeAnswer {
  return {
    kind: principal.kind,
    name: principal.name,
    ...(principal.kind === "user" ? { email: principal.email } : {}),
    actor: actorOf(principal),
    bindings: principal.bindings,
  };
}
