"use client";

// /notifications/new: where to send (a webhook's URL and secret, or e-mail addresses and how
// often), what it covers (the landscape when the person may read it, else one of their projects;
// optionally one cluster), and what to be told about (the kinds, and the days before for the
// kinds that take them). The server's 422 problems show beside their fields. Once made, a
// webhook's secret is shown this once, to copy: it will not be shown again.
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowLeft, CheckCircle2 } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { ChoiceGroup } from "@/components/update-runs/form-controls";
import { Button } from "@/components/ui/button";
import { FormAlert, SelectField, TextField } from "@/components/ui/form-field";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { useReadableProjects } from "@/components/use-readable-projects";
import type { NotificationSubscriptionJson } from "@/lib/api/notifications";
import { listShoots } from "@/lib/api/operations/shoots";
import { projectsQuery } from "@/lib/client/queries";
import { formProblems } from "@/lib/ui/access";
import { call } from "@/lib/ui/call";
import {
  draftToCreateRequest,
  formAlertText,
  LANDSCAPE_SCOPE,
  newDraft,
  problemsByField,
  type FormField,
  type SubscriptionDraft,
} from "@/lib/ui/notification-form";
import { MIN_SECRET_LENGTH, scopeText, subscriptionPage, type Channel } from "@/lib/ui/notification-text";
import { useCreateSubscription } from "./notification-queries";
import { NEW_SUBSCRIPTION_LINK } from "./notifications-page";
import {
  ADDRESSES_HINT,
  CopyButton,
  DestinationField,
  DigestField,
  KindsField,
  SecretField,
} from "./subscription-fields";

const BACK_LINK =
  "inline-flex items-center gap-1 text-sm text-slate-600 hover:text-accent-700 focus-visible:outline-2 focus-visible:outline-accent-600";

export function NewSubscriptionPage({ channel = "webhook" }: { channel?: Channel }) {
  const readable = useReadableProjects();
  const [typed, setDraft] = useState<SubscriptionDraft>(() => newDraft(channel));
  // The page is there to fill in this form: start in its first field (the URL, or the addresses).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, []);
  const [local, setLocal] = useState<Partial<Record<FormField, string>>>({});
  const create = useCreateSubscription();
  // What was made, with the secret it was made with: this page is the only place it is shown.
  const [created, setCreated] = useState<{ sub: NotificationSubscriptionJson; secret: string }>();
  const change = (c: Partial<SubscriptionDraft>) => setDraft((d) => ({ ...d, ...c }));

  // Someone without a landscape-wide role subscribes one of their projects (the first, until they choose).
  const own = readable === "all" || readable === undefined ? undefined : readable;
  const draft =
    own && own.length > 0 && typed.project === LANDSCAPE_SCOPE ? { ...typed, project: own[0]!.project } : typed;

  const { fields, message } = formProblems(create.error);
  const server = problemsByField(fields);
  const problems = { ...server.byField, ...local };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, problems: found } = draftToCreateRequest(draft);
    setLocal(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { channel: draft.channel, body },
      { onSuccess: (sub) => setCreated({ sub, secret: draft.channel === "webhook" ? draft.secret : "" }) },
    );
  };

  const header = (
    <PageHeader
      eyebrow={
        <Link href="/notifications" className={BACK_LINK}>
          <ArrowLeft aria-hidden className="size-4" /> Notifications
        </Link>
      }
      title={created ? "Subscription created" : "New subscription"}
      description={
        created
          ? undefined
          : "Events are found every minute and sent once per subscription; a receiver that fails is tried again later, and every attempt is kept on the subscription's page."
      }
    />
  );
  if (created) {
    return (
      <div className="max-w-3xl space-y-6">
        {header}
        <Created
          sub={created.sub}
          secret={created.secret}
          onAnother={() => {
            setCreated(undefined);
            create.reset();
            setDraft(newDraft(draft.channel, draft.project));
          }}
        />
      </div>
    );
  }

  return (
    <form ref={form} className="max-w-4xl space-y-6" noValidate onSubmit={submit} aria-label="New subscription">
      {header}
      <Panel title="Where to send" id="send-to">
        <div className="space-y-5">
          <ChoiceGroup
            legend="Channel"
            name="channel"
            value={draft.channel}
            onChange={(c) => change({ channel: c })}
            options={[
              {
                value: "webhook",
                label: "Webhook",
                hint: "A signed JSON POST per event; its text field reads well in Slack and Teams.",
              },
              { value: "email", label: "E-mail", hint: "One mail per event, or one digest a day." },
            ]}
          />
          {draft.channel === "webhook" ? (
            <>
              <DestinationField
                channel="webhook"
                isNew
                value={draft.url}
                onChange={(url) => change({ url })}
                hint="http or https. Addresses in private, loopback or link-local networks are refused unless the server allows them."
                error={problems.url}
              />
              <SecretField
                label="Secret"
                value={draft.secret}
                onChange={(secret) => change({ secret })}
                required
                error={problems.secret}
                hint={`At least ${MIN_SECRET_LENGTH} characters. Each request carries X-Almanac-Signature: sha256= and the HMAC-SHA256 of its body with this secret. Copy it to the receiver now: once saved, it will not be shown again.`}
              />
            </>
          ) : (
            <>
              <DestinationField
                channel="email"
                isNew
                value={draft.to}
                onChange={(to) => change({ to })}
                hint={ADDRESSES_HINT}
                error={problems.to}
              />
              <DigestField value={draft.digest} onChange={(digest) => change({ digest })} error={problems.digest} />
            </>
          )}
          <TextField
            label="Name (optional)"
            name="name"
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            placeholder="#platform-alerts"
            autoComplete="off"
            maxLength={200}
            hint="What people see in the list; without it, the channel and where it sends."
            error={problems.name}
            className="max-w-md"
          />
        </div>
      </Panel>
      <Panel title="What it covers" id="covers">
        <ScopeFields draft={draft} onChange={change} readable={readable} problems={problems} />
      </Panel>
      <Panel title="What to be told" id="kinds">
        <KindsField
          kinds={draft.kinds}
          onKinds={(kinds) => change({ kinds })}
          days={draft.days}
          onDays={(days) => change({ days })}
          kindsError={problems.events}
          daysError={problems.days}
        />
      </Panel>
      <div className="space-y-3">
        <FormAlert message={formAlertText(Object.keys(local).length, server.rest, message)} />
        <div className="flex flex-wrap justify-end gap-2">
          <Link
            href="/notifications"
            className="inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            Cancel
          </Link>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create subscription"}
          </Button>
        </div>
      </div>
    </form>
  );
}

/**
 * The landscape (only for someone who may read it) or one project, and optionally one cluster in
 * it, with the fleet's clusters of that scope offered as they type.
 */
function ScopeFields({
  draft,
  onChange,
  readable,
  problems,
}: {
  draft: SubscriptionDraft;
  onChange: (c: Partial<SubscriptionDraft>) => void;
  readable: ReturnType<typeof useReadableProjects>;
  problems: Partial<Record<FormField, string>>;
}) {
  const allProjects = useQuery({ ...projectsQuery, enabled: readable === "all" || readable === undefined });
  const options =
    readable === "all" || readable === undefined
      ? [
          { value: LANDSCAPE_SCOPE, label: "The whole landscape" },
          ...(allProjects.data?.items ?? []).map((p) => ({
            value: p.metadata.name,
            label: `Project ${p.metadata.name}`,
          })),
        ]
      : readable.map((r) => ({ value: r.project, label: `Project ${r.project}` }));
  const typed = draft.shoot.trim();
  const shoots = useQuery({
    queryKey: ["notifications", "shoot-choices", draft.project, typed],
    queryFn: ({ signal }) =>
      call(
        listShoots,
        {
          query: {
            project: draft.project || undefined,
            q: typed.includes("/") ? typed.split("/")[1] : typed,
            limit: 20,
          },
        },
        { signal },
      ),
    enabled: typed.length > 0,
    staleTime: 30_000,
  });
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SelectField
        label="Scope"
        name="project"
        value={draft.project}
        onChange={(e) => onChange({ project: e.target.value, shoot: "" })}
        options={options}
        hint={
          readable === "all" || readable === undefined
            ? "The whole landscape, or one project's clusters."
            : "Your projects (the whole landscape needs a landscape-wide role)."
        }
        error={problems.project}
      />
      <div>
        <TextField
          label="One cluster only (optional)"
          name="shoot"
          value={draft.shoot}
          onChange={(e) => onChange({ shoot: e.target.value })}
          list="notification-shoot-choices"
          placeholder="namespace/name"
          autoComplete="off"
          spellCheck={false}
          hint={`Leave empty for every cluster of ${draft.project ? `project ${draft.project}` : "the landscape"}.`}
          error={problems.shoot}
        />
        <datalist id="notification-shoot-choices">
          {(shoots.data?.items ?? []).map((s) => (
            <option key={`${s.namespace}/${s.name}`} value={`${s.namespace}/${s.name}`}>
              {s.project}
            </option>
          ))}
        </datalist>
      </div>
    </div>
  );
}

/** What was made; for a webhook, its secret this once, to copy. */
function Created({
  sub,
  secret,
  onAnother,
}: {
  sub: NotificationSubscriptionJson;
  secret: string;
  onAnother: () => void;
}) {
  return (
    <Panel>
      <div className="space-y-4 text-sm" data-testid="subscription-created">
        <p className="flex items-start gap-2 text-slate-800">
          <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-green-600" />
          <span>
            {sub.channel === "webhook" ? `Webhook to ${sub.url}` : `E-mail to ${sub.to}`} for{" "}
            {scopeText(sub).toLowerCase()} is {sub.enabled ? "on" : "off"}. Send it a test from its page to check the
            receiver.
          </span>
        </p>
        {secret && (
          <>
            <div
              role="alert"
              className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-inset ring-amber-200"
            >
              <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
              <p>
                <span className="font-semibold">Copy the secret now: it will not be shown again.</span> Almanac keeps it
                only to sign requests. If it is lost, set a new one on the subscription&apos;s page.
              </p>
            </div>
            <div>
              <label htmlFor="created-secret" className="mb-1 block font-medium text-slate-700">
                Secret
              </label>
              <div className="flex gap-2">
                <input
                  id="created-secret"
                  readOnly
                  value={secret}
                  onFocus={(e) => e.currentTarget.select()}
                  spellCheck={false}
                  className="block w-full min-w-0 rounded-md border-0 bg-slate-50 px-2.5 py-1.5 font-mono text-xs text-slate-900 ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-accent-600"
                />
                <CopyButton text={secret} />
              </div>
            </div>
          </>
        )}
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
          <Button onClick={onAnother}>Create another</Button>
          <Link href={subscriptionPage(sub)} className={NEW_SUBSCRIPTION_LINK}>
            {secret ? "I have copied it: open the subscription" : "Open the subscription"}
          </Link>
        </div>
      </div>
    </Panel>
  );
}
