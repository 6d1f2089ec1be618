import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Almanac", template: "%s · Almanac" },
  description: "The lifecycle of your Gardener shoot clusters: versions, expiry, maintenance windows, health.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, never prerendered: its inline scripts must carry the
  // nonce of the request's Content-Security-Policy (lib/http/content-security-policy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-dvh bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
