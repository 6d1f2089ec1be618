"use client";

// A fleet row's hibernation: "Hibernated · wakes Mon 07:00" for a cluster that sleeps, "sleeps
// Tue 19:00" for an awake one its schedule hibernates next (both clocks in the title).
import { Moon } from "lucide-react";
import type { ShootRow } from "@/lib/ui/api-types";
import { fleetHibernationNote, type RowHibernation } from "@/lib/ui/hibernation-fleet";

export function FleetHibernationNote({ row, now, mounted }: { row: ShootRow; now: number; mounted: boolean }) {
  // The list answer's `hibernation` (optional: rows stored before it existed leave it out).
  const hibernation: RowHibernation | undefined = row.hibernation;
  // Local times differ between the server and the browser: only the state until mounted.
  const note = fleetHibernationNote(mounted ? hibernation : undefined, hibernation?.enabled ?? row.hibernated, now);
  if (!note) return null;
  return (
    <span
      data-testid="fleet-hibernation"
      className={`inline-flex shrink-0 items-center gap-0.5 ${note.asleep ? "text-slate-700" : "text-slate-500"}`}
      title={note.title}
    >
      <Moon aria-hidden className="size-3" />
      {note.text} ·
    </span>
  );
}
