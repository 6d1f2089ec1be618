"use client";

// A new API token: a name, a role, where it holds, and when it expires. Once made, the dialog shows
// the value, this once, with a copy button: only a hash of it is kept, so nobody can show it again.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, Check, Copy } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useScopeOptions } from "@/components/accounts/use-scope-options";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DualTime } from "@/components/ui/time";
import { FormErrorBlock } from "@/components/ui/form-error-block";
import { SelectField, TextField } from "@/components/ui/form-field";
import { TOKEN_NAME_PATTERN } from "@/lib/api/tokens";
import { EXPIRY_CHOICES, formProblems, ROLE_CHOICES, scopeLabel } from "@/lib/ui/access";
import { createToken } from "@/lib/api/operations/access";
import { call } from "@/lib/ui/call";
import type { ApiRole, CreatedTokenAnswer, CreateTokenRequest } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";

const NEVER = "never";

export function CreateTokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const [created, setCreated] = useState<CreatedTokenAnswer>();
  const create = useMutation({
    mutationFn: (body: CreateTokenRequest) => call(createToken, { body }),
    onSuccess: (token) => {
      setCreated(token);
      void client.invalidateQueries({ queryKey: queryKeys.tokens });
    },
  });
  // Closing forgets the value: it lives in this dialog's state only.
  const close = () => {
    setCreated(undefined);
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? `Token ${created.name} created` : "New API token"}
      description={
        created
          ? undefined
          : "For automation: send it as Authorization: Bearer <token>. Its changes appear in the audit log as token:<name>."
      }
    >
      {created ? (
        <CreatedToken token={created} onDone={close} />
      ) : (
        <TokenForm pending={create.isPending} error={create.error} onSubmit={create.mutate} onCancel={close} />
      )}
    </Dialog>
  );
}

function TokenForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (body: CreateTokenRequest) => void;
  onCancel: () => void;
}) {
  const scopes = useScopeOptions();
  const [role, setRole] = useState<ApiRole>("viewer");
  const [nameError, setNameError] = useState<string>();
  const { fields } = formProblems(error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    if (!TOKEN_NAME_PATTERN.test(name)) {
      setNameError("1 to 63 characters: lower-case letters, digits and '-'.");
      return;
    }
    setNameError(undefined);
    const expiry = String(form.get("expiresInDays"));
    onSubmit({
      name,
      role,
      scope: String(form.get("scope") ?? "*"),
      expiresInDays: expiry === NEVER ? null : Number(expiry),
    });
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <TextField
        label="Name"
        name="name"
        autoComplete="off"
        spellCheck={false}
        required
        autoFocus
        placeholder="ci-deployer"
        hint="Lower-case letters, digits and '-'; unique, also among revoked tokens."
        error={nameError ?? fields.name}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Role"
          name="role"
          value={role}
          onChange={(e) => setRole(e.target.value as ApiRole)}
          options={ROLE_CHOICES}
          hint={ROLE_CHOICES.find((r) => r.value === role)?.help}
          error={fields.role}
        />
        <SelectField label="On" name="scope" defaultValue="*" options={scopes} error={fields.scope} />
      </div>
      <SelectField
        label="Expires after"
        name="expiresInDays"
        defaultValue="90"
        options={EXPIRY_CHOICES.map((c) => ({ value: c.days === null ? NEVER : String(c.days), label: c.label }))}
        error={fields.expiresInDays}
        className="sm:w-1/2"
      />
      <FormErrorBlock
        error={error}
        pending={pending}
        submitLabel="Create token"
        pendingLabel="Creating…"
        onCancel={onCancel}
      />
    </form>
  );
}

function CreatedToken({ token, onDone }: { token: CreatedTokenAnswer; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | "failed">(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.value);
      setCopied(true);
    } catch {
      setCopied("failed");
    }
  };
  return (
    <div className="space-y-4 text-sm">
      <div
        role="alert"
        className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-inset ring-amber-200"
      >
        <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
        <p>
          <span className="font-semibold">Copy the token now: it will not be shown again.</span> Almanac keeps only a
          hash of it. If it is lost, revoke it and create another.
        </p>
      </div>
      <div>
        <label htmlFor="token-value" className="mb-1 block font-medium text-slate-700">
          Token value
        </label>
        <div className="flex gap-2">
          <input
            id="token-value"
            readOnly
            value={token.value}
            onFocus={(e) => e.currentTarget.select()}
            spellCheck={false}
            className="block w-full min-w-0 rounded-md border-0 bg-slate-50 px-2.5 py-1.5 font-mono text-xs text-slate-900 ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-accent-600"
          />
          <Button onClick={() => void copy()} className="shrink-0">
            {copied === true ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
            {copied === true ? "Copied" : "Copy"}
          </Button>
        </div>
        <p role="status" className="mt-1 text-xs text-slate-500">
          {copied === "failed"
            ? "The browser did not allow copying; select the value and copy it by hand."
            : copied
              ? "Copied to the clipboard."
              : ""}
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-700">
        <dt className="text-slate-500">Role</dt>
        <dd>
          {token.role} · {scopeLabel(token.scope).toLowerCase()}
        </dd>
        <dt className="text-slate-500">Expires</dt>
        <dd>{token.expires ? <DualTime at={token.expires} /> : "never"}</dd>
        <dt className="text-slate-500">Use it as</dt>
        <dd className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</dd>
      </dl>
      <div className="flex justify-end border-t border-slate-200 pt-4">
        <Button variant="primary" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </div>
  );
}
