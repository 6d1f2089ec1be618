import type { ReactNode } from "react";
import { TONE_CLASSES, type Tone } from "@/lib/ui/status";

/** A small pill: tone for colour, but always an icon or word as well. */
export function Badge({
  tone,
  icon,
  children,
  title,
  className = "",
}: {
  tone: Tone;
  icon?: ReactNode;
  children: ReactNode;
  title?: string;
  className?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE_CLASSES[tone]} ${className}`}
    >
      {icon}
      {children}
    </span>
  );
}
