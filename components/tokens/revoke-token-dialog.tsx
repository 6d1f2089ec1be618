"use client";

// Revoking a token, confirmed: the next request that sends it is refused.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-field";
import { formProblems, scopeLabel } from "@/lib/ui/access";
import { revokeToken } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { ApiTokenJson } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";

export function RevokeTokenDialog({ token, onClose }: { token: ApiTokenJson | undefined; onClose: () => void }) {
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: string) => call(revokeToken, { params: { id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.tokens });
      close();
    },
  });
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Dialog
      open={token !== undefined}
      onClose={close}
      title="Revoke this token?"
      footer={
        <>
          <Button onClick={close} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={revoke.isPending} onClick={() => token && revoke.mutate(token.id)}>
            {revoke.isPending ? "Revoking…" : "Revoke token"}
          </Button>
        </>
      }
    >
      {token && (
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            <span className="font-mono font-medium text-slate-900">{token.name}</span> ({token.role} ·{" "}
            {scopeLabel(token.scope).toLowerCase()}) stops working at once: the next request that sends it is refused
            with 401. This cannot be undone; the name stays taken.
          </p>
          <FormAlert message={formProblems(revoke.error).message} />
        </div>
      )}
    </Dialog>
  );
}
