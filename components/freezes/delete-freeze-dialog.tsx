"use client";

// Deleting a freeze, confirmed: bulk actions and update run stages may then start in its time.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-field";
import { DualTime } from "@/components/ui/time";
import { deleteFreeze } from "@/lib/api/operations/freezes";
import type { FreezeJson } from "@/lib/api/freezes";
import { queryKeys } from "@/lib/client/query-keys";
import { formProblems } from "@/lib/ui/access";
import { call } from "@/lib/ui/call";

export function DeleteFreezeDialog({ freeze, onClose }: { freeze: FreezeJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => call(deleteFreeze, { params: { id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.forecasts });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={freeze !== undefined}
      onClose={close}
      title="Delete this freeze?"
      footer={
        <>
          <Button onClick={close} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => freeze && remove.mutate(freeze.id)}>
            {remove.isPending ? "Deleting…" : "Delete freeze"}
          </Button>
        </>
      }
    >
      {freeze && (
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            <span className="font-medium text-slate-900">{freeze.reason}</span> (
            {freeze.project === null ? "the whole landscape" : `project ${freeze.project}`}), from{" "}
            <DualTime at={freeze.start} relative={false} /> until <DualTime at={freeze.end} relative={false} />.
          </p>
          <p>
            Once it is deleted, bulk actions and update run stages may start in its time again. The audit log keeps who
            made and who deleted it.
          </p>
          <FormAlert message={formProblems(remove.error).message} />
        </div>
      )}
    </Dialog>
  );
}
