import type { Metadata } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/theme-provider";
import { parseTheme, THEME_COOKIE, themeAttribute } from "@/lib/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Almanac", template: "%s · Almanac" },
  description: "The lifecycle of your Gardener shoot clusters: versions, expiry, maintenance windows, health.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, never prerendered: its inline scripts must carry the
  // nonce of the request's Content-Security-Policy (lib/http/content-security-policy.ts).
  await connection();
  // The theme the person chose is in the first HTML, so the first paint is already in it; without
  // a choice the system's setting decides in CSS (app/globals.css).
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={themeAttribute(theme)}>
      <body className="min-h-dvh bg-slate-50 font-sans text-slate-900 antialiased">
        <ThemeProvider initial={theme}>{children}</ThemeProvider>
      </body>
    </html>
  );
}
