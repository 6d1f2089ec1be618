"use client";

// Above a fleet-wide page, for a caller without a landscape-wide role: the page shows only their
// projects, and says which, so that a short list does not read as the whole landscape.
import { Info } from "lucide-react";
import type { ReactNode } from "react";
import { useReadableProjects } from "./use-readable-projects";

export function ScopeNote({
  subject,
  children,
  className = "mb-5",
}: {
  /** What the page lists, plural: "shoots", "migrations". */
  subject: string;
  /** More to say, after the sentence. */
  children?: ReactNode;
  className?: string;
}) {
  const readable = useReadableProjects();
  if (readable === undefined || readable === "all") return null;
  const names = readable.map((p) => p.project);
  return (
    <p
      role="note"
      className={`${className} flex items-start gap-2 rounded-lg border border-accent-100 bg-accent-50 px-3 py-2 text-sm text-slate-700`}
    >
      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-600" />
      <span>
        {names.length === 0
          ? `You hold no role on a project, so no ${subject} are shown.`
          : `Showing the ${subject} of ${names.length === 1 ? "your project" : "your projects"} ${names.join(", ")} only: your roles are granted per project.`}
        {children && <> {children}</>}
      </span>
    </p>
  );
}
