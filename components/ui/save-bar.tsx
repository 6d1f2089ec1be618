"use client";

// The row that ends an editor of a shoot's settings (its maintenance, its hibernation schedules):
// Save and Undo, and beside them why the caller may not save, why the form cannot be saved yet,
// or what it holds. Its texts are live, so a screen reader hears them change.
import { Save, Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import type { Allowance } from "@/lib/ui/permissions";

export function SaveBar({
  idPrefix,
  saveLabel,
  undoLabel,
  allowance,
  saving,
  dirty,
  conflict,
  invalid,
  blocker,
  onUndo,
}: {
  /** Makes the ids of the notes the Save button points to ("maintenance" → "maintenance-save-blocked"). */
  idPrefix: string;
  saveLabel: string;
  undoLabel: string;
  /** Whether the caller may save (their role), with the reason when not. */
  allowance: Allowance;
  saving: boolean;
  dirty: boolean;
  /** Another tab or person saved meanwhile: the editor asks above how to go on. */
  conflict: boolean;
  invalid: boolean;
  /** Why the form cannot be saved yet, when shown. */
  blocker?: string;
  onUndo: () => void;
}) {
  const notAllowedId = `${idPrefix}-not-allowed`;
  const blockedId = `${idPrefix}-save-blocked`;
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
      <Button
        type="submit"
        variant="primary"
        disabled={saving || conflict || !dirty || invalid || !allowance.allowed}
        aria-describedby={describedBy(reasonId(notAllowedId, allowance)) ?? (blocker ? blockedId : undefined)}
      >
        <Save aria-hidden className="size-4" />
        {saving ? "Saving…" : saveLabel}
      </Button>
      <Button onClick={onUndo} disabled={!dirty || saving}>
        <Undo2 aria-hidden className="size-4" />
        {undoLabel}
      </Button>
      {reasonId(notAllowedId, allowance) ? (
        <NotAllowed id={notAllowedId} allowance={allowance} className="basis-full" />
      ) : blocker ? (
        <span id={blockedId} className="text-xs font-medium text-red-700" aria-live="polite">
          Not ready to save. {blocker}
        </span>
      ) : (
        <span className="text-xs text-slate-500" aria-live="polite">
          {conflict ? "Choose how to go on above." : dirty ? "Unsaved changes." : "No changes."}
        </span>
      )}
    </div>
  );
}
