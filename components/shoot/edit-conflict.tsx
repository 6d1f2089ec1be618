"use client";

// Someone else saved the same settings first. Says what they changed, keeps the user's edits,
// and offers both ways on: the user's edits on top of the current values, or the current values.
import { GitMerge, RotateCcw, Users } from "lucide-react";
import { Button } from "@/components/ui/button";

export function EditConflict({
  refused,
  changes,
  detail,
  onReapply,
  onDiscard,
}: {
  /** True after the server refused a save (409); false when noticed live before saving. */
  refused: boolean;
  changes: readonly string[];
  detail?: string;
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const what = changes.length > 0 ? changes.join("; ") : "its settings changed";
  return (
    <div
      role={refused ? "alert" : "status"}
      className={`rounded-lg p-3 text-sm ring-1 ring-inset ${refused ? "bg-red-50 text-red-900 ring-red-600/25" : "bg-amber-50 text-amber-900 ring-amber-600/25"}`}
    >
      <p className="flex items-start gap-2">
        <Users aria-hidden className={`mt-0.5 size-4 shrink-0 ${refused ? "text-red-600" : "text-amber-600"}`} />
        <span>
          <span className="font-semibold">
            {refused
              ? "This cluster was changed by someone else since you opened it: "
              : "Changed by someone else while you were editing: "}
          </span>
          {what}. {refused ? "Nothing was saved, and your edits are kept below." : "Your edits are kept."} Re-apply them
          to put them on top of the current values (nothing is saved until you save), or discard them.
        </span>
      </p>
      {refused && detail && <p className="mt-1 pl-6 text-xs opacity-80">{detail}</p>}
      <div className="mt-2 flex flex-wrap gap-2 pl-6">
        <Button variant="primary" onClick={onReapply}>
          <GitMerge aria-hidden className="size-4" />
          Re-apply my edits
        </Button>
        <Button onClick={onDiscard}>
          <RotateCcw aria-hidden className="size-4" />
          Discard my edits
        </Button>
      </div>
    </div>
  );
}
