"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { LiveIndicator } from "./live/live-indicator";

const LINKS = [
  { href: "/shoots", label: "Fleet" },
  { href: "/forecast", label: "Forecast" },
  { href: "/cloudprofiles", label: "Cloud profiles" },
  { href: "/migrations", label: "Migrations" },
  { href: "/audit", label: "Audit log" },
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

export function AppNav() {
  const pathname = usePathname();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-[1600px] items-center gap-6 px-6">
        <Link href="/shoots" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
          <Logo />
          Almanac
        </Link>
        <ul className="flex items-center gap-1 text-sm">
          {LINKS.map((link) => {
            const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={active ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 font-medium transition-colors focus-visible:outline-2 focus-visible:outline-accent-600 ${active ? "bg-accent-50 text-accent-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"}`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="ml-auto flex items-center gap-3 text-xs text-slate-500">
          <span className="hidden lg:inline">Simulated garden</span>
          <LiveIndicator />
        </div>
      </nav>
    </header>
  );
}
