import type { ReactNode } from "react";

/**
 * A box that scrolls sideways what is wider than the screen (a table on a phone), instead of the
 * page. It is a named region that takes focus, so the keyboard can scroll it too. `relative`:
 * visually hidden parts of the content (a table's caption) are positioned inside it, not against
 * the page, which they would widen.
 */
export function ScrollBox({
  label,
  children,
  className = "",
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-accent-600 ${className}`}
    >
      {children}
    </div>
  );
}
