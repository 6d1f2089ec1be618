"use client";

import { Braces, KeyRound, LogOut, UserRound } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { LiveIndicator } from "./live/live-indicator";
import { ThemeSwitch } from "./theme-switch";
import { NavMenu } from "./nav-menu";

/** Who is signed in, as the navigation shows it. */
export interface NavUser {
  readonly name: string;
  /** Their email, or "API token". */
  readonly detail: string;
  /** Their landscape-wide role ("admin"), or "project roles", or "no role". */
  readonly role: string;
  /**
   * How they are signed in: a session ends with "Sign out"; a trusted proxy signs them in on every
   * request, so only the proxy can sign them out; a token is sent by the client itself.
   */
  readonly signedInBy: "session" | "proxy" | "token";
}

const LINKS = [
  { href: "/shoots", label: "Fleet" },
  { href: "/forecast", label: "Forecast" },
  { href: "/update-runs", label: "Update runs" },
  { href: "/freezes", label: "Freezes" },
  { href: "/notifications", label: "Notifications" },
  { href: "/cloudprofiles", label: "Cloud profiles" },
  { href: "/migrations", label: "Migrations" },
  { href: "/audit", label: "Audit log" },
];

/** Beside the theme switch on wide screens; in the menu below them. */
const API_LINK = { href: "/api-reference", label: "API reference" };

/** For admins of the whole landscape only (the API refuses everyone else anyway). */
const ADMIN_LINKS = [
  { href: "/accounts", label: "Accounts" },
  { href: "/tokens", label: "Tokens" },
  { href: "/jobs", label: "Jobs" },
];

function Logo({ className = "size-7" }: { className?: string }) {
  // An almanac page: a calendar sheet with a marked day.
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={`${className} text-accent-600`}>
      <rect x="4" y="6" width="24" height="22" rx="4" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="M4 12h24M11 3v6M21 3v6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="20" cy="20" r="3" fill="currentColor" />
    </svg>
  );
}

/**
 * Which garden the pages show: the simulated one, or a live garden's API server and context, and
 * how people's changes reach it (ALMANAC_GARDEN_IDENTITY).
 */
export type NavGarden =
  | { readonly kind: "embedded" }
  | {
      readonly kind: "live";
      readonly server: string;
      readonly context: string;
      readonly identity?: "oidc" | "read-only" | "impersonation";
    };

/** How changes reach a live garden, in words for the navigation's tooltip. */
const CHANGES_AS = {
  oidc: "people change shoots with their own company sign-in",
  "read-only": "people change nothing in the garden",
  impersonation: "Almanac impersonates each person",
} as const;

export function AppNav({
  user,
  admin = false,
  garden = { kind: "embedded" },
}: {
  user: NavUser;
  admin?: boolean;
  garden?: NavGarden;
}) {
  const pathname = usePathname();
  const links = admin ? [...LINKS, ...ADMIN_LINKS] : LINKS;
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <nav
        aria-label="Main"
        className="mx-auto flex h-14 max-w-[1600px] items-center gap-3 px-4 sm:px-6 xl:gap-2 2xl:gap-6"
      >
        <Link href="/shoots" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight text-slate-900">
          <Logo />
          Almanac
        </Link>
        {/* Tighter from xl to 2xl, where an admin's ten links and the garden share 1280 px (with
            room for the live indicator's longer "Connecting…"). */}
        <NavLinks
          links={links}
          pathname={pathname}
          className="hidden items-center whitespace-nowrap text-sm xl:flex xl:text-[13px] xl:[&_a]:px-0.5 2xl:gap-1 2xl:text-sm 2xl:[&_a]:px-3"
        />
        <div className="ml-auto flex items-center gap-3 whitespace-nowrap text-xs text-slate-500 xl:gap-1.5 2xl:gap-3">
          {garden.kind === "live" ? (
            <span
              className="hidden max-w-72 truncate lg:inline xl:max-w-28 2xl:max-w-72"
              title={`Garden API server ${garden.server}, context ${garden.context}${garden.identity ? `; ${CHANGES_AS[garden.identity]}; the admin token acts as the kubeconfig's identity` : ""}`}
            >
              Garden <span className="font-medium text-slate-700">{garden.context}</span> ·{" "}
              <span className="font-mono">{garden.server.replace(/^https?:\/\//, "")}</span>
            </span>
          ) : (
            <span className="hidden lg:inline">Simulated garden</span>
          )}
          <LiveIndicator />
          <Link
            href={API_LINK.href}
            aria-label={API_LINK.label}
            title={API_LINK.label}
            aria-current={pathname === API_LINK.href ? "page" : undefined}
            className={`hidden items-center gap-1 rounded-md px-1.5 py-1 font-medium hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600 xl:inline-flex ${pathname === API_LINK.href ? "text-accent-700" : "text-slate-600"}`}
          >
            <Braces aria-hidden="true" className="size-4" />
            {/* The word only where the links leave room for it. */}
            <span className="hidden 2xl:inline">API</span>
          </Link>
          <ThemeSwitch />
          <SignedIn user={user} className="hidden border-l pl-3 xl:flex" />
          {/* Below xl the links and who is signed in move into the menu. */}
          <NavMenu className="xl:hidden">
            <NavLinks links={[...links, API_LINK]} pathname={pathname} className="flex flex-col gap-1 text-sm" />
            <SignedIn user={user} className="mt-3 flex border-t pt-3 text-xs text-slate-500" />
          </NavMenu>
        </div>
      </nav>
    </header>
  );
}

function NavLinks({
  links,
  pathname,
  className,
}: {
  links: readonly { href: string; label: string }[];
  pathname: string;
  className: string;
}) {
  return (
    <ul className={className}>
      {links.map((link) => {
        const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <li key={link.href}>
            <Link
              href={link.href}
              aria-current={active ? "page" : undefined}
              className={`block rounded-md px-3 py-1.5 font-medium transition-colors focus-visible:outline-2 focus-visible:outline-accent-600 ${active ? "bg-accent-50 text-accent-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
            >
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function SignedIn({ user, className }: { user: NavUser; className: string }) {
  const [signingOut, setSigningOut] = useState(false);
  const [failed, setFailed] = useState(false);
  const signOut = async () => {
    setSigningOut(true);
    setFailed(false);
    try {
      const response = await fetch("/api/auth/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!response.ok) throw new Error(String(response.status));
      // A full load, not a client navigation: nothing read while signed in stays in memory.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/sign-in");
    } catch {
      setFailed(true);
      setSigningOut(false);
    }
  };
  return (
    <div className={`${className} flex-wrap items-center gap-2 border-slate-200`}>
      <UserRound aria-hidden className="size-4 text-slate-400" />
      <div className="leading-tight" title={user.detail}>
        {/* A long email is cut (it is in the title) where the links need the room. */}
        <div className="max-w-40 truncate font-medium text-slate-800 2xl:max-w-64">{user.name}</div>
        <div>
          <span className="sr-only">Role: </span>
          {user.role}
        </div>
      </div>
      {user.signedInBy === "proxy" && (
        <span
          className="ml-1"
          title="Your company's sign-in proxy signs you in on every request; to sign out, sign out there."
        >
          Signed in by proxy
        </span>
      )}
      {user.signedInBy === "session" && (
        <Link
          href="/password"
          title="Change your password"
          className="ml-1 inline-flex items-center rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <KeyRound aria-hidden className="size-3.5" />
          <span className="sr-only">Change your password</span>
        </Link>
      )}
      {user.signedInBy === "session" && (
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          className="ml-1 inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:opacity-60"
        >
          <LogOut aria-hidden className="size-3.5" />
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      )}
      {failed && (
        <span role="alert" className="text-red-700">
          Sign-out failed; try again.
        </span>
      )}
    </div>
  );
}
