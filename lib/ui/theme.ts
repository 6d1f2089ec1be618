// The colour theme a person chose: the system's setting (the default), or always light or dark.
// The choice lives in a cookie rather than in localStorage, so that the server renders the page in
// it (<html data-theme>) and the first paint is already right, without an inline script.

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "almanac-theme";

/** A year: the choice outlives sessions and sign-outs. */
const THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The cookie's value as a theme; anything else (absent, edited, old) is the system's setting. */
export function parseTheme(value: string | undefined | null): Theme {
  return THEMES.find((t) => t === value) ?? "system";
}

/** The <html> data-theme attribute for a theme: none when the system decides (CSS media query). */
export function themeAttribute(theme: Theme): "light" | "dark" | undefined {
  return theme === "system" ? undefined : theme;
}

/** The document.cookie assignment that remembers `theme` (following the system clears it). */
export function themeCookie(theme: Theme): string {
  return theme === "system"
    ? `${THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
    : `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${THEME_COOKIE_MAX_AGE}; SameSite=Lax`;
}
