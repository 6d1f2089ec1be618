import { describe, expect, it } from "vitest";
import { parseTheme, themeAttribute, themeCookie } from "./theme";

describe("the colour theme", () => {
  it("reads a chosen theme from its cookie and anything else as the system's setting", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("system")).toBe("system");
    expect(parseTheme(undefined)).toBe("system");
    expect(parseTheme("")).toBe("system");
    expect(parseTheme("Dark")).toBe("system");
    expect(parseTheme("midnight")).toBe("system");
  });

  it("marks the page only when the person chose, so that the system decides otherwise", () => {
    expect(themeAttribute("dark")).toBe("dark");
    expect(themeAttribute("light")).toBe("light");
    expect(themeAttribute("system")).toBeUndefined();
  });

  it("remembers a choice for a year on every path, and forgets it when the system decides again", () => {
    expect(themeCookie("dark")).toBe("almanac-theme=dark; Path=/; Max-Age=31536000; SameSite=Lax");
    expect(themeCookie("light")).toContain("almanac-theme=light;");
    expect(themeCookie("system")).toBe("almanac-theme=; Path=/; Max-Age=0; SameSite=Lax");
  });
});
