"use client";

// A new built-in account: name, email, a first password (the person changes nothing here; they
// sign in with it), and one role on the landscape or a project. More roles: "Change roles".
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert, SelectField, TextField } from "@/components/ui/form-field";
import { PASSWORD_MIN_LENGTH } from "@/lib/api/accounts";
import { formProblems, ROLE_CHOICES } from "@/lib/ui/access";
import { createAccount } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { CreateAccountRequest } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";
import { useScopeOptions } from "./use-scope-options";

export function CreateAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const scopes = useScopeOptions();
  const [role, setRole] = useState<CreateAccountRequest["role"]>("viewer");
  const [confirmError, setConfirmError] = useState<string>();
  const create = useMutation({
    mutationFn: (body: CreateAccountRequest) => call(createAccount, { body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.accounts });
      close();
    },
  });
  const close = () => {
    create.reset();
    setConfirmError(undefined);
    setRole("viewer");
    onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== form.get("confirm")) {
      setConfirmError("The two passwords differ.");
      return;
    }
    setConfirmError(undefined);
    create.mutate({
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password,
      role,
      scope: String(form.get("scope") ?? "*"),
    });
  };
  const { fields, message } = formProblems(create.error);
  return (
    <Dialog
      open={open}
      onClose={close}
      title="New account"
      description="A built-in account that signs in with email and password. Tell the person their password through a safe channel."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField label="Name" name="name" autoComplete="off" required autoFocus error={fields.name} />
        <TextField label="Email" name="email" type="email" autoComplete="off" required error={fields.email} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={PASSWORD_MIN_LENGTH}
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={fields.password}
          />
          <TextField
            label="Password again"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            error={confirmError}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Role"
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as CreateAccountRequest["role"])}
            options={ROLE_CHOICES}
            hint={ROLE_CHOICES.find((r) => r.value === role)?.help}
            error={fields.role}
          />
          <SelectField label="On" name="scope" defaultValue="*" options={scopes} error={fields.scope} />
        </div>
        <FormAlert message={message} />
        <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create account"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
