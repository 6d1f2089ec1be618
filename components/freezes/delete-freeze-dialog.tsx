"use client";

// Deleting a freeze, confirmed: bulk actions and update run stages may then start in its time.
import { useQueryClient } from "@tanstack/react-query";
import { ConfirmRemovalDialog } from "@/components/ui/confirm-removal-dialog";
import { DualTime } from "@/components/ui/time";
import { deleteFreeze } from "@/lib/api/operations/freezes";
import type { FreezeJson } from "@/lib/api/freezes";
import { queryKeys } from "@/lib/client/query-keys";
import { call } from "@/lib/ui/call";

export function DeleteFreezeDialog({ freeze, onClose }: { freeze: FreezeJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <ConfirmRemovalDialog
      item={freeze}
      onClose={onClose}
      title="Delete this freeze?"
      confirmLabel="Delete freeze"
      pendingLabel="Deleting…"
      remove={(f) => call(deleteFreeze, { params: { id: f.id } })}
      onRemoved={() => void client.invalidateQueries({ queryKey: queryKeys.forecasts })}
    >
      {(f) => (
        <>
          <p>
            <span className="font-medium text-slate-900">{f.reason}</span> (
            {f.project === null ? "the whole landscape" : `project ${f.project}`}), from{" "}
            <DualTime at={f.start} relative={false} /> until <DualTime at={f.end} relative={false} />.
          </p>
          <p>
            Once it is deleted, bulk actions and update run stages may start in its time again. The audit log keeps who
            made and who deleted it.
          </p>
        </>
      )}
    </ConfirmRemovalDialog>
  );
}
