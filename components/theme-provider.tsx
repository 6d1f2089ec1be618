"use client";

import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { themeAttribute, themeCookie, type Theme } from "@/lib/ui/theme";

const ThemeContext = createContext<{ theme: Theme; choose: (theme: Theme) => void } | null>(null);

/**
 * The theme the person chose, as the server read it from the cookie (so the switch renders the
 * same on the server and in the browser). Choosing marks <html> at once and remembers the choice.
 */
export function ThemeProvider({ initial, children }: { initial: Theme; children: ReactNode }) {
  const [theme, setTheme] = useState(initial);
  const choose = useCallback((next: Theme) => {
    const attribute = themeAttribute(next);
    if (attribute) document.documentElement.dataset.theme = attribute;
    else delete document.documentElement.dataset.theme;
    document.cookie = themeCookie(next);
    setTheme(next);
  }, []);
  return <ThemeContext value={{ theme, choose }}>{children}</ThemeContext>;
}

export function useTheme() {
  const context = useContext(ThemeContext);
  if (!context) throw new Error("useTheme needs a ThemeProvider (app/layout.tsx)");
  return context;
}
