import type { Metadata } from "next";
import type { ReactNode } from "react";
import { AppNav } from "@/components/app-nav";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Almanac", template: "%s · Almanac" },
  description: "The lifecycle of your Gardener shoot clusters: versions, expiry, maintenance windows, health.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh bg-slate-50 font-sans text-slate-900 antialiased">
        <Providers>
          <AppNav />
          <main id="main" className="mx-auto max-w-[1600px] px-6 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
