"use client";

// A subscription's settings, changed in place: on or off, its name, where it sends (a webhook's
// URL, or an e-mail's addresses and how often), the kinds and the days. A webhook's secret is never
// shown; a new one typed (or generated) here replaces it when saved, and is shown only until then.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/form-field";
import { Panel } from "@/components/ui/page-header";
import type { NotificationSubscriptionJson } from "@/lib/api/notifications";
import { formProblems } from "@/lib/ui/access";
import {
  formAlertText,
  problemsByField,
  settingsToPatch,
  type FormField,
  type SettingsDraft,
} from "@/lib/ui/notification-form";
import { DEFAULT_DAYS, MIN_SECRET_LENGTH } from "@/lib/ui/notification-text";
import { useUpdateSubscription } from "./notification-queries";
import { ADDRESSES_HINT, DestinationField, DigestField, KindsField, SecretField } from "./subscription-fields";

const draftOf = (sub: NotificationSubscriptionJson): SettingsDraft => ({
  name: sub.name ?? "",
  enabled: sub.enabled,
  kinds: sub.events,
  days: (sub.days.length > 0 ? sub.days : DEFAULT_DAYS).join(", "),
  secret: "",
  // The answer's URL is masked (it may carry a token): a change types a new one, empty keeps it.
  url: "",
  to: sub.to ?? "",
  digest: sub.digest,
});

export function SettingsPanel({ sub }: { sub: NotificationSubscriptionJson }) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(sub));
  const [local, setLocal] = useState<Partial<Record<FormField, string>>>({});
  const [saved, setSaved] = useState(false);
  const update = useUpdateSubscription(sub.channel, sub.id);
  const change = (c: Partial<SettingsDraft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...c }));
  };
  const { fields, message } = formProblems(update.error);
  const server = problemsByField(fields);
  const problems = { ...server.byField, ...local };
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(sub));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, problems: found } = settingsToPatch(sub.channel, draft);
    setLocal(found);
    if (Object.keys(found).length > 0) return;
    // Once saved, the form starts again from the answer, with the secret field empty.
    update.mutate(body, {
      onSuccess: (answer) => {
        setDraft(draftOf(answer));
        setSaved(true);
      },
    });
  };

  return (
    <Panel title="Settings" id="settings">
      <form onSubmit={submit} noValidate className="space-y-5" aria-label="Subscription settings">
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            name="enabled"
            checked={draft.enabled}
            onChange={(e) => change({ enabled: e.target.checked })}
            className="mt-0.5 size-4 accent-[var(--color-accent-600)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
          />
          <span>
            <span className="font-medium text-slate-900">Enabled</span>
            <span className="block text-xs text-slate-500">Off: no event is sent to it until it is enabled again.</span>
          </span>
        </label>
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label="Name"
            name="name"
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            autoComplete="off"
            maxLength={200}
            error={problems.name}
          />
          {sub.channel === "webhook" ? (
            <DestinationField
              channel="webhook"
              value={draft.url}
              onChange={(url) => change({ url })}
              hint={`Now ${sub.url ?? ""} (shown masked: it may carry a token). Empty keeps it; a new URL replaces it when saved.`}
              error={problems.url}
            />
          ) : (
            <DestinationField
              channel="email"
              value={draft.to}
              onChange={(to) => change({ to })}
              hint={ADDRESSES_HINT}
              error={problems.to}
            />
          )}
        </div>
        {sub.channel === "webhook" ? (
          <SecretField
            label="New secret (optional)"
            value={draft.secret}
            onChange={(secret) => change({ secret })}
            error={problems.secret}
            hint={`Empty keeps the current secret. A new one (at least ${MIN_SECRET_LENGTH} characters) replaces it when saved: copy it to the receiver first, it will not be shown again.`}
          />
        ) : (
          <DigestField value={draft.digest} onChange={(digest) => change({ digest })} error={problems.digest} />
        )}
        <KindsField
          kinds={draft.kinds}
          onKinds={(kinds) => change({ kinds })}
          days={draft.days}
          onDays={(days) => change({ days })}
          kindsError={problems.events}
          daysError={problems.days}
        />
        <FormAlert message={formAlertText(Object.keys(local).length, server.rest, message)} />
        <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 pt-4">
          <p role="status" className="text-sm text-green-700">
            {saved && !changed ? "Saved." : ""}
          </p>
          <Button onClick={() => (setDraft(draftOf(sub)), setLocal({}), update.reset())} disabled={!changed}>
            Undo changes
          </Button>
          <Button type="submit" variant="primary" disabled={update.isPending || !changed}>
            {update.isPending ? "Saving…" : "Save changes"}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
