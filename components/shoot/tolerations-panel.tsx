"use client";

// The "Seed tolerations" panel: the shoot's spec.tolerations, edited as a list of keys with an
// optional value and saved as one merge patch guarded by the resourceVersion the edit started
// from. What is typed is judged by the shoot's validation at once (beside the field); tolerations
// the project's whitelist does not allow are flagged as the garden would refuse them (unless its
// global whitelist, which the page cannot see, allows them), and the garden's own refusal is shown
// beside the toleration it names. For the edit in progress: which seeds it opens or closes.
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, Lock, LockOpen, Plus, Save, Trash2, Undo2 } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { Panel } from "@/components/ui/page-header";
import { usePermissions } from "@/components/use-permissions";
import { projectsQuery, seedsQuery } from "@/lib/client/queries";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { taintsAreTolerated } from "@/lib/engine/migration-admission";
import type { Toleration } from "@/lib/gardener/types";
import type { Shoot } from "@/lib/ui/api-types";
import {
  describeEntry,
  notWhitelisted,
  reachLines,
  rowProblems,
  rowsOf,
  sameTolerations,
  taintText,
  tolerationsOfRows,
  tolerationsPatch,
  type TolerationRow,
  whitelistChoices,
} from "@/lib/ui/tolerations-form";
import { EditConflict } from "./edit-conflict";
import { FieldMessage, inputClass } from "./field-message";

const tolerationsOf = (shoot: Shoot): Toleration[] => shoot.spec.tolerations ?? [];

export function TolerationsPanel({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const change = useShootChange(namespace, shoot.metadata.name);
  const { operate } = usePermissions(namespace);
  const locked = !operate.allowed && operate.known;
  const notAllowed = reasonId("tolerations-not-allowed", operate);
  const seeds = useQuery(seedsQuery);
  const projects = useQuery(projectsQuery);
  const project = projects.data?.items.find((p) => p.spec.namespace === namespace);
  const whitelist = project?.spec.tolerations?.whitelist ?? [];

  const [base, setBase] = useState(() => ({
    tolerations: tolerationsOf(shoot),
    resourceVersion: shoot.metadata.resourceVersion,
  }));
  const [rows, setRows] = useState<TolerationRow[]>(() => rowsOf(base.tolerations));
  const keyInputs = useRef<(HTMLInputElement | null)[]>([]);
  const [focusRow, setFocusRow] = useState<number>();

  const edited = tolerationsOfRows(rows);
  const dirty = !sameTolerations(edited, base.tolerations) || rows.some((r) => r.key.trim() === "");
  const saving = change.pending;
  // Follow live changes while there is nothing of the user's to keep.
  const live = shoot.metadata.resourceVersion;
  if (!dirty && !saving && !change.conflict && live !== base.resourceVersion) {
    setBase({ tolerations: tolerationsOf(shoot), resourceVersion: live });
    setRows(rowsOf(tolerationsOf(shoot)));
  }

  const local = rowProblems(rows);
  const outside = project ? notWhitelisted(base.tolerations, rows, whitelist) : new Set<number>();
  const fieldPaths = Object.fromEntries(
    rows.flatMap((_, i) => [
      [`key${i}`, `spec.tolerations[${i}].key`],
      [`value${i}`, `spec.tolerations[${i}].value`],
      [`row${i}`, `spec.tolerations[${i}]`],
    ]),
  );
  const refused = change.fields(fieldPaths);
  // A row just added has no key yet: that is said once at the save button, not as an error under it.
  const emptyKey = (i: number) => rows[i].key.trim() === "";
  const messageOf = (i: number, part: "key" | "value" | "row") =>
    (part === "key" && emptyKey(i)
      ? undefined
      : local.get(part === "row" ? `spec.tolerations[${i}]` : `spec.tolerations[${i}].${part}`)) ??
    refused.messages[`${part}${i}`];
  const invalid = local.size > 0;
  const choices = whitelistChoices(whitelist, rows);
  const reach = seeds.data ? reachLines(seeds.data.items, base.tolerations, edited, shoot.status?.seedName) : [];
  const tainted = (seeds.data?.items ?? []).filter((s) => (s.spec.taints ?? []).length > 0);
  const saved = change.result?.outcome === "saved" && !dirty;

  function edit(next: TolerationRow[]) {
    if (change.error || change.result) change.reset();
    setRows(next);
  }
  function add(t: Toleration = { key: "" }) {
    edit([...rows, { key: t.key, value: t.value ?? "", withValue: t.value !== undefined }]);
    setFocusRow(rows.length);
  }
  function remove(i: number) {
    edit(rows.filter((_, j) => j !== i));
  }
  /** Starts again from `current`: with the rows as typed on top (`keep`), or with its tolerations. */
  function rebase(current: Shoot, keep: boolean) {
    change.reset();
    setBase({ tolerations: tolerationsOf(current), resourceVersion: current.metadata.resourceVersion });
    if (!keep) setRows(rowsOf(tolerationsOf(current)));
  }
  function undo() {
    change.reset();
    setBase({ tolerations: tolerationsOf(shoot), resourceVersion: shoot.metadata.resourceVersion });
    setRows(rowsOf(tolerationsOf(shoot)));
  }
  function save() {
    if (invalid || !dirty) return;
    const wanted = tolerationsOfRows(rows);
    change.edit(
      {
        resourceVersion: base.resourceVersion,
        patch: (resourceVersion) => tolerationsPatch(wanted, resourceVersion),
        part: tolerationsOf,
        base: base.tolerations,
        wanted,
      },
      {
        onSuccess: (result) => {
          if (result.outcome !== "saved" && result.outcome !== "applied") return;
          setBase({ tolerations: tolerationsOf(result.shoot), resourceVersion: result.shoot.metadata.resourceVersion });
          setRows(rowsOf(tolerationsOf(result.shoot)));
        },
      },
    );
  }

  return (
    <Panel id="tolerations" title="Seed tolerations">
      <form
        noValidate
        aria-label="Seed tolerations"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <p className="text-xs text-slate-600">
          A seed with taints hosts this cluster&apos;s control plane only if every taint is tolerated here. Tolerations
          new to the cluster must be on the project&apos;s whitelist (or the garden&apos;s global one).
        </p>

        {rows.length === 0 ? (
          <p className="text-sm text-slate-500" data-testid="no-tolerations">
            No tolerations: only seeds without taints can host this cluster.
          </p>
        ) : (
          <ul className="space-y-3" aria-label="Tolerations">
            {rows.map((row, i) => {
              const keyMessage = messageOf(i, "key");
              const valueMessage = messageOf(i, "value");
              const rowMessage = messageOf(i, "row");
              return (
                <li key={i} className="rounded-md bg-slate-50 p-2.5 ring-1 ring-inset ring-slate-200">
                  <div className="flex flex-wrap items-end gap-2">
                    <label className="min-w-0 flex-[2_1_8rem] text-xs font-medium text-slate-700">
                      Key
                      <input
                        ref={(el) => {
                          keyInputs.current[i] = el;
                          if (el && focusRow === i) {
                            el.focus();
                            setFocusRow(undefined);
                          }
                        }}
                        value={row.key}
                        disabled={locked || saving}
                        spellCheck={false}
                        autoComplete="off"
                        placeholder="dedicated"
                        aria-invalid={!!keyMessage}
                        aria-describedby={describedBy(keyMessage && `toleration-${i}-key-message`, notAllowed)}
                        onChange={(e) => edit(rows.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)))}
                        className={inputClass(!!keyMessage, "mt-1 w-full font-mono")}
                      />
                    </label>
                    <label className="min-w-0 flex-[1_1_5rem] text-xs font-medium text-slate-700">
                      Value <span className="font-normal text-slate-500">(optional)</span>
                      <input
                        value={row.value}
                        disabled={locked || saving}
                        spellCheck={false}
                        autoComplete="off"
                        placeholder="any"
                        aria-invalid={!!valueMessage}
                        aria-describedby={describedBy(valueMessage && `toleration-${i}-value-message`, notAllowed)}
                        onChange={(e) =>
                          edit(
                            rows.map((r, j) =>
                              j === i ? { ...r, value: e.target.value, withValue: e.target.value !== "" } : r,
                            ),
                          )
                        }
                        className={inputClass(!!valueMessage, "mt-1 w-full font-mono")}
                      />
                    </label>
                    <Button
                      variant="ghost"
                      onClick={() => remove(i)}
                      disabled={locked || saving}
                      aria-label={`Remove toleration ${row.key || i + 1}`}
                      aria-describedby={describedBy(notAllowed)}
                    >
                      <Trash2 aria-hidden className="size-4" />
                    </Button>
                  </div>
                  <FieldMessage id={`toleration-${i}-key-message`} message={keyMessage} />
                  <FieldMessage id={`toleration-${i}-value-message`} message={valueMessage} />
                  <FieldMessage id={`toleration-${i}-message`} message={rowMessage} />
                  {!keyMessage && !rowMessage && outside.has(i) && row.key.trim() !== "" && (
                    <p className="mt-1 flex items-start gap-1 text-xs text-amber-800" data-testid="not-whitelisted">
                      <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0 text-amber-600" />
                      <span>
                        Not on the project&apos;s whitelist: the garden refuses it unless its global whitelist allows
                        it.
                      </span>
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )}

        <div className="flex flex-wrap items-center gap-2">
          <Button onClick={() => add()} disabled={locked || saving} aria-describedby={describedBy(notAllowed)}>
            <Plus aria-hidden className="size-4" />
            Add toleration
          </Button>
        </div>

        <section aria-labelledby="tolerations-whitelist-title" className="space-y-1.5">
          <h3 id="tolerations-whitelist-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            Project whitelist
          </h3>
          {projects.isPending ? (
            <p className="text-xs text-slate-500">Loading the project…</p>
          ) : projects.isError ? (
            <p className="text-xs text-slate-500">The project could not be loaded, so its whitelist is not shown.</p>
          ) : whitelist.length === 0 ? (
            <p className="text-xs text-slate-500">
              The project allows no tolerations; only the garden&apos;s global whitelist may.
            </p>
          ) : (
            <div className="flex flex-wrap gap-1.5">
              {whitelist.map((t) => {
                const open = choices.includes(t);
                return (
                  <button
                    key={describeEntry(t)}
                    type="button"
                    disabled={!open || locked || saving}
                    onClick={() => add(t.value === undefined ? { key: t.key } : t)}
                    className="inline-flex items-center gap-1 rounded-md bg-white px-2 py-1 font-mono text-xs text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:cursor-not-allowed disabled:text-slate-400"
                    aria-label={open ? `Add ${describeEntry(t)}` : `${describeEntry(t)} (already listed)`}
                  >
                    {open ? <Plus aria-hidden className="size-3" /> : <CheckCircle2 aria-hidden className="size-3" />}
                    {describeEntry(t)}
                  </button>
                );
              })}
            </div>
          )}
        </section>

        <section aria-labelledby="tolerations-seeds-title" className="space-y-1.5">
          <h3 id="tolerations-seeds-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            Tainted seeds
          </h3>
          {seeds.isPending ? (
            <p className="text-xs text-slate-500">Loading the seeds…</p>
          ) : seeds.isError ? (
            <p className="text-xs text-slate-500">
              The seeds could not be loaded, so what the edit opens is not shown.
            </p>
          ) : tainted.length === 0 ? (
            <p className="text-xs text-slate-500">No seed has taints: tolerations change nothing here.</p>
          ) : (
            <ul className="space-y-1 text-xs" data-testid="tainted-seeds">
              {tainted.map((s) => {
                const open = taintsAreTolerated(s.spec.taints ?? [], edited);
                return (
                  <li key={s.metadata.name} className="flex items-start gap-1.5 text-slate-700">
                    {open ? (
                      <LockOpen aria-hidden className="mt-px size-3.5 shrink-0 text-emerald-600" />
                    ) : (
                      <Lock aria-hidden className="mt-px size-3.5 shrink-0 text-slate-400" />
                    )}
                    <span className="min-w-0">
                      <span className="font-medium">{s.metadata.name}</span>
                      <span className="text-slate-500">
                        {open ? " · usable with these tolerations" : " · not usable: a taint is not tolerated"}
                      </span>
                      <span className="block break-all font-mono text-slate-500">{taintText(s)}</span>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
          {dirty && reach.length > 0 && (
            <ul className="space-y-1 pt-1" aria-live="polite" data-testid="seed-reach">
              {reach.map((line) => (
                <li
                  key={line.kind}
                  className={`flex items-start gap-1.5 text-xs ${line.kind === "opened" ? "text-emerald-800" : "text-amber-800"}`}
                >
                  {line.kind === "opened" ? (
                    <LockOpen aria-hidden className="mt-px size-3.5 shrink-0" />
                  ) : (
                    <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0" />
                  )}
                  <span>{line.text}</span>
                </li>
              ))}
            </ul>
          )}
          {dirty && seeds.data && reach.length === 0 && (
            <p className="text-xs text-slate-500" aria-live="polite">
              This edit opens or closes no seed.
            </p>
          )}
        </section>

        {change.conflict && (
          <EditConflict
            refused
            changes={[
              `the tolerations are now ${tolerationsOf(change.conflict.current).map(describeStored).join(", ") || "none"}`,
            ]}
            detail={change.conflict.conflict.message}
            onReapply={() => rebase(change.conflict!.current, true)}
            onDiscard={() => rebase(change.conflict!.current, false)}
          />
        )}
        {change.error != null && (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-sm text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>
            {Object.keys(refused.messages).length > 0
              ? "The garden refused a toleration; its reason is beside it. Your input is kept."
              : `${(change.error as Error).message} Your input is kept.`}
          </p>
        )}
        {saved && (
          <p role="status" className="flex items-center gap-2 text-sm text-emerald-800">
            <CheckCircle2 aria-hidden className="size-4 text-emerald-600" /> Saved.
          </p>
        )}

        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <Button
            type="submit"
            variant="primary"
            disabled={saving || !dirty || invalid || !!change.conflict || !operate.allowed}
            aria-describedby={describedBy(notAllowed)}
          >
            <Save aria-hidden className="size-4" />
            {saving ? "Saving…" : "Save tolerations"}
          </Button>
          <Button onClick={undo} disabled={(!dirty && !change.conflict) || saving}>
            <Undo2 aria-hidden className="size-4" />
            Undo my edits
          </Button>
          {notAllowed ? (
            <NotAllowed id="tolerations-not-allowed" allowance={operate} className="basis-full" />
          ) : (
            <span className="text-xs text-slate-500" aria-live="polite">
              {rows.some((_, i) => emptyKey(i))
                ? "Fill in each key, or remove the empty toleration, to save."
                : invalid
                  ? "Fix the marked fields to save."
                  : dirty
                    ? "Unsaved changes."
                    : "No changes."}
            </span>
          )}
        </div>
      </form>
    </Panel>
  );
}

const describeStored = (t: Toleration) => (t.value === undefined ? t.key : `${t.key}=${t.value}`);
