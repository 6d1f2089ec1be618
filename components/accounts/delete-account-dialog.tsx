"use client";

// Deleting an account, confirmed: their sessions end at once. The server refuses deleting yourself
// or the last landscape-wide admin; the reason shows here.
import { useQueryClient } from "@tanstack/react-query";
import { ConfirmRemovalDialog } from "@/components/ui/confirm-removal-dialog";
import { removeAccount } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { AccountJson } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";

export function DeleteAccountDialog({ account, onClose }: { account: AccountJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <ConfirmRemovalDialog
      item={account}
      onClose={onClose}
      title="Delete this account?"
      confirmLabel="Delete account"
      pendingLabel="Deleting…"
      remove={(a) => call(removeAccount, { params: { id: a.id } })}
      onRemoved={() => void client.invalidateQueries({ queryKey: queryKeys.accounts })}
    >
      {(a) => (
        <p>
          <span className="font-medium text-slate-900">{a.name || a.email}</span> ({a.email}) can no longer sign in, and
          every browser they are signed in with is signed out at once. Their changes stay in the audit log under their
          email.
        </p>
      )}
    </ConfirmRemovalDialog>
  );
}
