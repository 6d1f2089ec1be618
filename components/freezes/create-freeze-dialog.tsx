"use client";

// A new freeze: from and until (in the browser's time zone, shown in UTC beside), why, and what it
// covers (the whole landscape, or one project). The server's field problems show beside their field.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Dialog } from "@/components/ui/dialog";
import { FormErrorBlock } from "@/components/ui/form-error-block";
import { SelectField, TextField } from "@/components/ui/form-field";
import { createFreeze } from "@/lib/api/operations/freezes";
import type { CreateFreezeRequest } from "@/lib/api/freezes";
import { projectsQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";
import { formProblems } from "@/lib/ui/access";
import { call } from "@/lib/ui/call";
import { localInputToRfc3339 } from "@/lib/ui/freeze-text";
import { formatUtcShort } from "@/lib/ui/time";

const LANDSCAPE = "";

export function CreateFreezeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: CreateFreezeRequest) => call(createFreeze, { body }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.forecasts });
      close();
    },
  });
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="New freeze"
      description="Almanac starts no bulk action and no update run stage inside it. Gardener still forces the updates of expired versions: the freeze lists them."
    >
      {open && <FreezeForm pending={create.isPending} error={create.error} onSubmit={create.mutate} onCancel={close} />}
    </Dialog>
  );
}

function UtcHint({ value }: { value: string }) {
  const iso = localInputToRfc3339(value);
  return <>{iso ? `${formatUtcShort(iso)} · your time zone: ${timeZone()}` : `In your time zone (${timeZone()}).`}</>;
}

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function FreezeForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (body: CreateFreezeRequest) => void;
  onCancel: () => void;
}) {
  const projects = useQuery(projectsQuery);
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const { fields } = formProblems(error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const project = String(form.get("project") ?? LANDSCAPE);
    const startAt = localInputToRfc3339(start);
    const endAt = localInputToRfc3339(end);
    // An empty or unreadable field is left out: the server names it as missing.
    onSubmit({
      ...(startAt ? { start: startAt } : {}),
      ...(endAt ? { end: endAt } : {}),
      reason: String(form.get("reason") ?? ""),
      ...(project !== LANDSCAPE ? { project } : {}),
    });
  };
  const options = [
    { value: LANDSCAPE, label: "The whole landscape (admin)" },
    ...(projects.data?.items ?? []).map((p) => ({ value: p.metadata.name, label: `Project ${p.metadata.name}` })),
  ];
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="From"
          name="start"
          type="datetime-local"
          value={start}
          onChange={(e) => setStart(e.target.value)}
          required
          data-autofocus
          hint={<UtcHint value={start} />}
          error={fields.start}
        />
        <TextField
          label="Until"
          name="end"
          type="datetime-local"
          value={end}
          onChange={(e) => setEnd(e.target.value)}
          required
          hint={<UtcHint value={end} />}
          error={fields.end}
        />
      </div>
      <TextField
        label="Reason"
        name="reason"
        autoComplete="off"
        required
        maxLength={500}
        placeholder="Year-end change freeze"
        hint="People read it wherever the freeze stops something."
        error={fields.reason}
      />
      <SelectField
        label="Covers"
        name="project"
        defaultValue={LANDSCAPE}
        options={options}
        hint="A project's freeze needs the operator role on it; the whole landscape's the admin role."
        error={fields.project}
      />
      <FormErrorBlock
        error={error}
        pending={pending}
        submitLabel="Create freeze"
        pendingLabel="Creating…"
        onCancel={onCancel}
      />
    </form>
  );
}
