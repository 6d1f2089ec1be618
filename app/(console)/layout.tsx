import type { ReactNode } from "react";
import { AppNav, type NavUser } from "@/components/app-nav";
import { Providers } from "@/components/providers";
import { allows, roleOn } from "@/lib/auth/roles.ts";
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
  return (
    <Providers>
      <AppNav user={user} admin={allows(principal.bindings, "administer")} />
      <main id="main" className="mx-auto max-w-[1600px] px-6 py-6">
        {children}
      </main>
    </Providers>
  );
}
