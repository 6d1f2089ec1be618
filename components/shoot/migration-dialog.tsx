"use client";

// Choosing where the control plane moves: every seed with its readiness for the migration, its
// taints and whether this shoot tolerates them, and why a seed cannot take it (the server's
// reasons, Gardener's admission). A seed that is not ready can be chosen: as in Gardener, the
// migration then waits until it is. Confirming sends POST .../migrate; a 422 lists every reason it
// was refused.
import { useQuery } from "@tanstack/react-query";
import { AlertOctagon, AlertTriangle, CheckCircle2, ShieldAlert, ShieldCheck, XCircle } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { RequestError } from "@/lib/ui/api";
import type { MigrateRequest, Shoot, ShootMigrationAnswer, StartMigrationAnswer } from "@/lib/ui/api-types";
import type { Seed } from "@/lib/gardener/types";
import { seedsQuery } from "@/lib/client/queries";
import { migrationConfirmation, nameConfirmed } from "@/lib/ui/shoot-operations";
import { inputClass } from "./field-message";

type Destination = ShootMigrationAnswer["destinations"][number];

const taintText = (t: { key: string; value?: string }) => (t.value ? `${t.key}=${t.value}` : t.key);

/** The seed's taints, each marked tolerated or not by this shoot (the server says which it does not tolerate). */
function taintsOf(seed: Seed | undefined, destination: Destination) {
  return (seed?.spec.taints ?? []).map((t) => {
    const text = taintText(t);
    return { text, tolerated: !(destination.untoleratedTaints ?? []).includes(text) };
  });
}

export function MigrationDialog({
  shoot,
  answer,
  open,
  onClose,
  onStarted,
}: {
  shoot: Shoot;
  answer: ShootMigrationAnswer;
  open: boolean;
  onClose: () => void;
  onStarted: (destination: string) => void;
}) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const [choice, setChoice] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const groupId = useId();
  const seeds = useQuery({ ...seedsQuery, enabled: open });
  const seedByName = new Map((seeds.data?.items ?? []).map((s) => [s.metadata.name, s]));
  const migrate = useShootChange<StartMigrationAnswer>(namespace, name);
  const start = (seedName: string) =>
    migrate.act(
      (send) => send<StartMigrationAnswer>("POST", "migrate", { body: { seedName } satisfies MigrateRequest }),
      {
        onSuccess: () => {
          onStarted(seedName);
          setChoice(null);
          setTyped("");
          migrate.reset();
        },
      },
    );
  const close = () => {
    setChoice(null);
    setTyped("");
    migrate.reset();
    onClose();
  };

  // Possible destinations first, then the others with their reasons; the current seed last.
  const ordered = [...answer.destinations].sort(
    (a, b) =>
      Number(a.current) - Number(b.current) ||
      Number(a.reasons.length > 0) - Number(b.reasons.length > 0) ||
      a.name.localeCompare(b.name),
  );
  const possible = ordered.filter((d) => d.reasons.length === 0).length;
  const error = migrate.error;
  // A production cluster's move is confirmed by typing its name; a move to another region is spelled out.
  const source = answer.destinations.find((d) => d.current);
  const chosen = answer.destinations.find((d) => d.name === choice);
  const confirmation = migrationConfirmation(shoot, source?.region, chosen?.region);
  const typedOk = !confirmation.typeName || nameConfirmed(typed, name);

  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      title={`Migrate the control plane of ${name}`}
      description={
        <>
          The control plane moves from seed <strong className="font-medium text-slate-800">{answer.seed}</strong> to the
          seed you choose. Its API server is unavailable while etcd is backed up and restored (minutes); worker nodes
          keep running. The steps are shown live once it starts.
        </>
      }
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!choice || !typedOk || migrate.pending}
            onClick={() => choice && typedOk && start(choice)}
            aria-describedby={choice && !typedOk ? `${groupId}-confirm-hint` : undefined}
          >
            {migrate.pending ? "Starting…" : choice ? `Migrate to ${choice}` : "Choose a seed"}
          </Button>
        </>
      }
    >
      <fieldset className="min-w-0">
        <legend id={groupId} className="text-sm font-medium text-slate-900">
          Destination seed{" "}
          <span className="font-normal text-slate-500">
            ({possible} of {answer.destinations.filter((d) => !d.current).length} possible)
          </span>
        </legend>
        <div role="radiogroup" aria-labelledby={groupId} className="mt-2 space-y-2">
          {ordered.map((d) => {
            const disabled = d.reasons.length > 0;
            // Until the seeds have loaded, say nothing about taints rather than "no taints".
            const taints = seeds.data ? taintsOf(seedByName.get(d.name), d) : null;
            const reasonId = `${groupId}-${d.name}-why`;
            return (
              <label
                key={d.name}
                className={`flex gap-3 rounded-lg border p-3 text-sm ${disabled ? "cursor-not-allowed border-slate-200 bg-slate-50" : "cursor-pointer border-slate-300 hover:border-accent-500 has-[:checked]:border-accent-600 has-[:checked]:bg-accent-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-600"}`}
              >
                <input
                  type="radio"
                  name={`${groupId}-seed`}
                  value={d.name}
                  disabled={disabled}
                  checked={choice === d.name}
                  onChange={() => setChoice(d.name)}
                  aria-describedby={reasonId}
                  className="mt-1 accent-[var(--color-accent-600)]"
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className={`font-medium ${disabled ? "text-slate-500" : "text-slate-900"}`}>{d.name}</span>
                    <span className="text-xs text-slate-500">
                      {d.provider} · {d.region}
                    </span>
                    {d.current && <Badge tone="grey">Current seed</Badge>}
                    {d.ready ? (
                      <Badge tone="green" icon={<CheckCircle2 aria-hidden className="size-3.5" />}>
                        Ready
                      </Badge>
                    ) : (
                      <Badge tone="red" icon={<XCircle aria-hidden className="size-3.5" />}>
                        Not ready
                      </Badge>
                    )}
                    {taints === null ? null : taints.length === 0 ? (
                      <span className="inline-flex items-center gap-1 text-xs text-slate-500">
                        <ShieldCheck aria-hidden className="size-3.5" />
                        No taints
                      </span>
                    ) : (
                      taints.map((t) => (
                        <Badge
                          key={t.text}
                          // A taint can be longer than a phone is wide.
                          className="whitespace-normal! [overflow-wrap:anywhere]"
                          tone={t.tolerated ? "grey" : "amber"}
                          icon={
                            t.tolerated ? (
                              <ShieldCheck aria-hidden className="size-3.5" />
                            ) : (
                              <ShieldAlert aria-hidden className="size-3.5" />
                            )
                          }
                        >
                          Taint {t.text}: {t.tolerated ? "tolerated" : "not tolerated"}
                        </Badge>
                      ))
                    )}
                  </span>
                  <span id={reasonId} className="mt-1 block text-xs">
                    {disabled ? (
                      <span className="text-slate-600">Not possible: {d.reasons.join("; ")}.</span>
                    ) : d.ready ? (
                      <span className="text-emerald-800">
                        Possible: Gardener admits the move, and the seed is ready.
                      </span>
                    ) : (
                      <span className="text-amber-800">
                        Possible, but the migration waits until the seed is ready
                        {d.readyForMigration ? `: ${d.readyForMigration.message}` : ""}.
                      </span>
                    )}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      {chosen && (confirmation.regionChange || confirmation.typeName) && (
        <div className="mt-4 space-y-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-600/25">
          {confirmation.regionChange && (
            <p data-testid="migration-region-change" className="flex items-start gap-2">
              <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
              <span>
                <span className="font-semibold">The region changes</span> from{" "}
                <strong className="font-medium">{confirmation.regionChange.from}</strong> to{" "}
                <strong className="font-medium">{confirmation.regionChange.to}</strong>: the control plane runs in
                another region than before, with more latency to the worker nodes (they stay in{" "}
                {shoot.spec.region ?? confirmation.regionChange.from}), and its data is stored there.
              </span>
            </p>
          )}
          {confirmation.typeName && (
            <div>
              <label htmlFor={`${groupId}-confirm`} className="block font-medium">
                {name} is a production cluster. Type <span className="font-mono font-semibold">{name}</span> to confirm
                the migration
              </label>
              <input
                id={`${groupId}-confirm`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={`${groupId}-confirm-hint`}
                className={inputClass(false, "mt-1 w-full bg-white font-mono text-slate-900")}
              />
              <p id={`${groupId}-confirm-hint`} className="mt-1 text-xs text-amber-800">
                {typedOk ? "The name matches." : "The Migrate button is enabled once the name is typed exactly."}
              </p>
            </div>
          )}
        </div>
      )}
      {error && (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="flex items-center gap-1.5 font-medium">
            <AlertOctagon aria-hidden className="size-4 text-red-600" />
            The migration was refused
          </p>
          {error instanceof RequestError && error.errors.length > 0 ? (
            <ul className="mt-1 list-disc pl-6">
              {error.errors.map((e, i) => (
                <li key={i}>
                  <span className="font-mono text-xs">{e.field}</span>: {e.detail}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1">{error.message}</p>
          )}
        </div>
      )}
    </Dialog>
  );
}
