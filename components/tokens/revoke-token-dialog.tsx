"use client";

// Revoking a token, confirmed: the next request that sends it is refused.
import { useQueryClient } from "@tanstack/react-query";
import { ConfirmRemovalDialog } from "@/components/ui/confirm-removal-dialog";
import { scopeLabel } from "@/lib/ui/access";
import { revokeToken } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { ApiTokenJson } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";

export function RevokeTokenDialog({ token, onClose }: { token: ApiTokenJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  return (
    <ConfirmRemovalDialog
      item={token}
      onClose={onClose}
      title="Revoke this token?"
      confirmLabel="Revoke token"
      pendingLabel="Revoking…"
      remove={(t) => call(revokeToken, { params: { id: t.id } })}
      onRemoved={() => void client.invalidateQueries({ queryKey: queryKeys.tokens })}
    >
      {(t) => (
        <p>
          <span className="font-mono font-medium text-slate-900">{t.name}</span> ({t.role} ·{" "}
          {scopeLabel(t.scope).toLowerCase()}) stops working at once: the next request that sends it is refused with
          401. This cannot be undone; the name stays taken.
        </p>
      )}
    </ConfirmRemovalDialog>
  );
}
