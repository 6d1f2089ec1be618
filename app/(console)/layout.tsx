import type { ReactNode } from "react";
import { AppNav, type NavGarden, type NavUser } from "@/components/app-nav";
import { gardenConfig } from "@/lib/garden/garden-config.ts";
import { Providers } from "@/components/providers";
import { authorize } from "@/lib/auth/authorize.ts";
import { roleOn } from "@/lib/auth/roles.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { signedIn } from "./signed-in.ts";

// Every page of the console is for signed-in people only; the navigation says who they are.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const principal = await signedIn();
  const user: NavUser = {
    name: principal.kind === "user" ? principal.name || principal.email : principal.name,
    detail: principal.kind === "user" ? principal.email : "API token",
    role: roleOn(principal.bindings) ?? (principal.bindings.length > 0 ? "project roles" : "no role"),
    signedInBy: principal.kind !== "user" ? "token" : principal.via === "proxy" ? "proxy" : "session",
  };
  // The administration's pages need the admin role on the whole landscape, as their API does.
  const admin = (await authorize(principal, { need: "administer" }, gardenAccess())).ok;
  const config = gardenConfig();
  const garden: NavGarden =
    config.kind === "live"
      ? { kind: "live", server: config.server, context: config.context, identity: config.identity }
      : { kind: "embedded" };
  return (
    <Providers>
      <AppNav user={user} admin={admin} garden={garden} />
      <main id="main" className="mx-auto max-w-[1600px] px-4 py-6 sm:px-6">
        {children}
      </main>
    </Providers>
  );
}
