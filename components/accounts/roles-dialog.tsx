"use client";

// Changing an account's roles: one row per scope (role and where), rows added and removed, saved
// as a whole. The server refuses taking the last landscape-wide admin's role; that reason shows here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert, SelectField } from "@/components/ui/form-field";
import { formProblems, LANDSCAPE, ROLE_CHOICES } from "@/lib/ui/access";
import { setAccountRoles } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { AccountJson, AccountRolesRequest, ApiRole, RoleBindingJson } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";
import { useScopeOptions } from "./use-scope-options";

export function RolesDialog({ account, onClose }: { account: AccountJson | undefined; onClose: () => void }) {
  return (
    <Dialog
      open={account !== undefined}
      onClose={onClose}
      title={account ? `Roles of ${account.name || account.email}` : "Roles"}
      description={
        account ? <>{account.email}. Changes apply to their next request; they need not sign in again.</> : undefined
      }
    >
      {account && <RolesForm key={account.id} account={account} onClose={onClose} />}
    </Dialog>
  );
}

function RolesForm({ account, onClose }: { account: AccountJson; onClose: () => void }) {
  const client = useQueryClient();
  const [rows, setRows] = useState<RoleBindingJson[]>(() => [...account.bindings]);
  const scopes = useScopeOptions(account.bindings.map((b) => b.scope));
  const save = useMutation({
    mutationFn: (body: AccountRolesRequest) => call(setAccountRoles, { params: { id: account.id }, body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.accounts });
      onClose();
    },
  });
  const { fields, message } = formProblems(save.error);
  const set = (index: number, change: Partial<RoleBindingJson>) =>
    setRows((list) => list.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const unused = scopes.find((s) => !rows.some((r) => r.scope === s.value))?.value;
  const duplicate = (index: number) => rows.findIndex((r) => r.scope === rows[index].scope) !== index;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rows.some((_, i) => duplicate(i))) return;
    save.mutate({ bindings: rows });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      {rows.length === 0 ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600">
          No role: this person can sign in but sees nothing. Add a role, or save to take every role away.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Roles">
          {rows.map((row, index) => (
            <li key={index} className="flex items-start gap-3">
              <SelectField
                label="Role"
                value={row.role}
                onChange={(e) => set(index, { role: e.target.value as ApiRole })}
                options={ROLE_CHOICES}
                error={fields[`bindings[${index}].role`]}
                className="w-36"
              />
              <SelectField
                label="On"
                value={row.scope}
                onChange={(e) => set(index, { scope: e.target.value })}
                options={scopes}
                error={
                  fields[`bindings[${index}].scope`] ??
                  (duplicate(index) ? "This scope has a role above already: one role per scope." : undefined)
                }
                className="flex-1"
              />
              <Button
                variant="ghost"
                className="mt-6"
                onClick={() => setRows((list) => list.filter((_, i) => i !== index))}
                aria-label={`Remove the role ${row.role} on ${row.scope === LANDSCAPE ? "the whole landscape" : `project ${row.scope}`}`}
              >
                <Trash2 aria-hidden className="size-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        variant="secondary"
        disabled={unused === undefined}
        onClick={() => unused !== undefined && setRows((list) => [...list, { role: "viewer", scope: unused }])}
      >
        <Plus aria-hidden className="size-4" /> Add a role
      </Button>
      <FormAlert message={fields.bindings ?? message} />
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save roles"}
        </Button>
      </div>
    </form>
  );
}
