"use client";

// Deleting an account, confirmed: their sessions end at once. The server refuses deleting yourself
// or the last landscape-wide admin; the reason shows here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-field";
import { formProblems } from "@/lib/ui/access";
import { removeAccount } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { AccountJson } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";

export function DeleteAccountDialog({ account, onClose }: { account: AccountJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => call(removeAccount, { params: { id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.accounts });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={account !== undefined}
      onClose={close}
      title="Delete this account?"
      footer={
        <>
          <Button onClick={close} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => account && remove.mutate(account.id)}>
            {remove.isPending ? "Deleting…" : "Delete account"}
          </Button>
        </>
      }
    >
      {account && (
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            <span className="font-medium text-slate-900">{account.name || account.email}</span> ({account.email}) can no
            longer sign in, and every browser they are signed in with is signed out at once. Their changes stay in the
            audit log under their email.
          </p>
          <FormAlert message={formProblems(remove.error).message} />
        </div>
      )}
    </Dialog>
  );
}
