"use client";

import { Monitor, Moon, Sun, type LucideIcon } from "lucide-react";
import type { Theme } from "@/lib/ui/theme";
import { useTheme } from "./theme-provider";

const OPTIONS: { theme: Theme; label: string; Icon: LucideIcon }[] = [
  { theme: "system", label: "System", Icon: Monitor },
  { theme: "light", label: "Light", Icon: Sun },
  { theme: "dark", label: "Dark", Icon: Moon },
];

/**
 * System / Light / Dark as a group of radio buttons: the browser gives it arrow keys and a name,
 * and the icons say which is which (their words are for screen readers and the tooltip).
 */
export function ThemeSwitch() {
  const { theme, choose } = useTheme();
  return (
    <fieldset className="flex items-center rounded-md p-0.5 ring-1 ring-inset ring-slate-200">
      <legend className="sr-only">Theme</legend>
      {OPTIONS.map(({ theme: option, label, Icon }) => (
        <label
          key={option}
          title={`${label} theme`}
          className="relative flex cursor-pointer rounded p-1 text-slate-500 hover:text-slate-900 has-checked:bg-slate-100 has-checked:text-slate-900 has-focus-visible:outline-2 has-focus-visible:outline-accent-600"
        >
          <input
            type="radio"
            name="theme"
            value={option}
            checked={theme === option}
            onChange={() => choose(option)}
            // Over the whole label, invisible: a click anywhere on the icon chooses it.
            className="absolute inset-0 m-0 cursor-pointer appearance-none opacity-0"
          />
          <Icon aria-hidden className="size-4" />
          <span className="sr-only">{label}</span>
        </label>
      ))}
    </fieldset>
  );
}
