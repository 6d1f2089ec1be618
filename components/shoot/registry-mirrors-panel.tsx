"use client";

// The "containerd registry mirrors" panel: the shoot's registry-mirror extension (its MirrorConfig
// in spec.extensions), editable upstream by upstream, with the hosts.toml files gardener-node-agent
// writes from it, previewed as typed. The engine's rules (the extension's validation) judge the
// form as it is typed, so Save says why it is off; a refusal of the server's (or of a live
// garden's) is placed at the field it names. Saving replaces the extension's configuration; with
// no mirror left it removes the extension. Nothing typed is lost on a refusal.
import { CheckCircle2, FileCode2, Info, Plus, Save, Trash2, Undo2, X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { Panel } from "@/components/ui/page-header";
import { usePermissions } from "@/components/use-permissions";
import { useShootChange } from "@/lib/client/use-shoot-change";
import {
  CERTS_DIRECTORY,
  hostsTomlFiles,
  MIRROR_CAPABILITIES,
  registryMirrorExtension,
} from "@/lib/engine/registry-mirrors";
import type { Shoot } from "@/lib/ui/api-types";
import {
  configOf,
  describeField,
  emptyHost,
  emptyMirror,
  fieldPaths,
  formFromShoot,
  formProblems,
  type HostRow,
  mirrorsPart,
  mirrorsPatch,
  type MirrorRow,
  providerConfigOf,
  sameMirrors,
} from "@/lib/ui/registry-mirrors-form";
import { EditConflict } from "./edit-conflict";
import { FieldMessage, inputClass } from "./field-message";

const CAPABILITY_HELP: Record<string, string> = {
  pull: "fetch content by digest",
  resolve: "turn a tag into a digest",
};

interface Base {
  readonly part: unknown;
  readonly resourceVersion?: string;
}

export function RegistryMirrorsPanel({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const id = useId();
  const change = useShootChange(namespace, name);
  const { operate } = usePermissions(namespace);
  const locked = !operate.allowed && operate.known;
  const notAllowed = reasonId(`${id}-not-allowed`, operate);

  const [base, setBase] = useState<Base>(() => ({
    part: mirrorsPart(shoot),
    resourceVersion: shoot.metadata.resourceVersion,
  }));
  const [rows, setRows] = useState<MirrorRow[]>(() => formFromShoot(shoot));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const saving = change.pending;
  const dirty = !sameMirrors(providerConfigOf(rows), base.part);

  // Follow live changes while nothing of the user's is to keep.
  const live = shoot.metadata.resourceVersion;
  if (!dirty && !saving && !change.conflict && live !== base.resourceVersion) {
    setBase({ part: mirrorsPart(shoot), resourceVersion: live });
    setRows(formFromShoot(shoot));
  }

  const extension = registryMirrorExtension(shoot);
  const unreadable = extension !== undefined && formFromShoot(shoot).length === 0;
  const paths = fieldPaths(rows);
  const local = formProblems(rows);
  const localAt = (key: string) => (touched.has(key) ? local.find((p) => p.field === paths[key])?.detail : undefined);
  const refused = change.fields(paths);
  const message = (key: string) => refused.messages[key] ?? localAt(key);
  const blocker = local[0] ? `${describeField(local[0].field, rows)}: ${local[0].detail}` : undefined;
  const files = hostsTomlFiles(configOf(rows.filter((m) => m.upstream.trim() !== "")));

  const update = (next: MirrorRow[]) => {
    if (change.error != null || change.result) change.reset();
    setRows(next);
  };
  const touch = (key: string) => setTouched((t) => new Set(t).add(key));
  const setMirror = (i: number, m: Partial<MirrorRow>) => update(rows.map((r, k) => (k === i ? { ...r, ...m } : r)));
  const setHost = (i: number, j: number, h: Partial<HostRow>) =>
    setMirror(i, { hosts: rows[i].hosts.map((x, k) => (k === j ? { ...x, ...h } : x)) });

  function rebase(current: Shoot) {
    setBase({ part: mirrorsPart(current), resourceVersion: current.metadata.resourceVersion });
    setRows(formFromShoot(current));
    setTouched(new Set());
    change.reset();
  }

  function save() {
    if (!dirty || local.length > 0) return;
    const sent = rows;
    change.edit(
      {
        resourceVersion: base.resourceVersion,
        patch: (resourceVersion) => mirrorsPatch(sent, resourceVersion),
        part: mirrorsPart,
        base: base.part,
        wanted: providerConfigOf(sent),
        same: sameMirrors,
      },
      {
        onSuccess: (result) => {
          if (result.outcome !== "saved" && result.outcome !== "applied") return;
          setBase({ part: mirrorsPart(result.shoot), resourceVersion: result.shoot.metadata.resourceVersion });
          setRows(formFromShoot(result.shoot));
          setTouched(new Set());
        },
      },
    );
  }

  const saved = change.result?.outcome === "saved" || change.result?.outcome === "applied";
  const summary = extension ? `${rows.length} upstream${rows.length === 1 ? "" : "s"}` : "Not configured";
  return (
    <Panel
      id="registry-mirrors"
      title="containerd registry mirrors"
      actions={<span className="text-xs text-slate-500">{summary}</span>}
    >
      <form
        noValidate
        aria-label="Registry mirrors"
        className="space-y-4 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <p className="text-slate-600">
          containerd tries each mirror of an upstream registry in order, then the upstream itself. Gardener configures
          them with the <span className="font-medium">registry-mirror</span> extension and containerd&apos;s hosts
          directory (<code className="font-mono text-xs">{CERTS_DIRECTORY}</code>): one{" "}
          <code className="font-mono text-xs">hosts.toml</code> per upstream.
        </p>

        {change.conflict && (
          <EditConflict
            refused
            changes={["the registry mirrors were changed by someone else"]}
            detail={change.conflict.conflict.message}
            onReapply={() => {
              setBase({
                part: mirrorsPart(change.conflict!.current),
                resourceVersion: change.conflict!.current.metadata.resourceVersion,
              });
              change.reset();
            }}
            onDiscard={() => rebase(change.conflict!.current)}
          />
        )}
        {unreadable && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md bg-amber-50 p-2.5 text-amber-900 ring-1 ring-inset ring-amber-600/20"
          >
            <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
            The extension&apos;s configuration does not read as a MirrorConfig; adding mirrors here replaces it.
          </p>
        )}
        {extension?.disabled === true && (
          <p className="text-xs text-amber-800">
            The extension is disabled (disabled: true): containerd uses no mirrors. Saving a change to the mirrors
            enables it.
          </p>
        )}

        {rows.length === 0 ? (
          <p className="rounded-md border border-dashed border-slate-300 p-3 text-slate-600" data-testid="no-mirrors">
            No mirrors: containerd pulls every image from its registry directly.
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Upstream registries">
            {rows.map((m, i) => (
              <li key={m.key} className="rounded-lg border border-slate-200 p-3" data-testid="mirror">
                <div className="flex items-end gap-2">
                  <div className="min-w-0 flex-1">
                    <label htmlFor={`${id}-${m.key}-upstream`} className="block text-xs font-medium text-slate-700">
                      Upstream registry {i + 1}
                    </label>
                    <input
                      id={`${id}-${m.key}-upstream`}
                      value={m.upstream}
                      placeholder="docker.io"
                      disabled={locked}
                      spellCheck={false}
                      autoComplete="off"
                      onChange={(e) => setMirror(i, { upstream: e.target.value })}
                      onBlur={() => touch(`${m.key}.upstream`)}
                      aria-invalid={!!message(`${m.key}.upstream`)}
                      aria-describedby={message(`${m.key}.upstream`) ? `${id}-${m.key}-upstream-error` : undefined}
                      className={inputClass(!!message(`${m.key}.upstream`), "mt-1 w-full font-mono")}
                    />
                  </div>
                  <Button
                    variant="ghost"
                    disabled={locked}
                    onClick={() => update(rows.filter((_, k) => k !== i))}
                    aria-label={`Remove upstream ${m.upstream || i + 1}`}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                </div>
                <FieldMessage id={`${id}-${m.key}-upstream-error`} message={message(`${m.key}.upstream`)} />
                <FieldMessage id={`${id}-${m.key}-hosts-error`} message={message(`${m.key}.hosts`)} />
                <ul
                  className="mt-3 space-y-3 border-l-2 border-slate-100 pl-3"
                  aria-label="Mirror hosts, tried in order"
                >
                  {m.hosts.map((h, j) => {
                    const hostMessage = message(`${h.key}.host`);
                    const capsMessage = message(`${h.key}.capabilities`) ?? message(`${h.key}.rest`);
                    return (
                      <li key={h.key} data-testid="mirror-host">
                        <div className="flex items-end gap-2">
                          <div className="min-w-0 flex-1">
                            <label htmlFor={`${id}-${h.key}-host`} className="block text-xs font-medium text-slate-700">
                              Mirror host {j + 1} (URL)
                            </label>
                            <input
                              id={`${id}-${h.key}-host`}
                              value={h.host}
                              placeholder="https://mirror.example.com"
                              disabled={locked}
                              spellCheck={false}
                              autoComplete="off"
                              inputMode="url"
                              onChange={(e) => setHost(i, j, { host: e.target.value })}
                              onBlur={() => touch(`${h.key}.host`)}
                              aria-invalid={!!hostMessage}
                              aria-describedby={hostMessage ? `${id}-${h.key}-host-error` : undefined}
                              className={inputClass(!!hostMessage, "mt-1 w-full font-mono")}
                            />
                          </div>
                          <Button
                            variant="ghost"
                            disabled={locked || m.hosts.length === 1}
                            onClick={() => setMirror(i, { hosts: m.hosts.filter((_, k) => k !== j) })}
                            aria-label={`Remove mirror host ${h.host || j + 1}`}
                            title={m.hosts.length === 1 ? "An upstream needs at least one mirror host" : undefined}
                          >
                            <X aria-hidden className="size-4" />
                          </Button>
                        </div>
                        <FieldMessage id={`${id}-${h.key}-host-error`} message={hostMessage} />
                        <fieldset className="mt-2">
                          <legend className="text-xs text-slate-600">Trusted to</legend>
                          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                            {MIRROR_CAPABILITIES.map((c) => (
                              <label key={c} className="flex items-center gap-1.5 text-xs text-slate-800">
                                <input
                                  type="checkbox"
                                  checked={h.capabilities.includes(c)}
                                  disabled={locked}
                                  onChange={(e) => {
                                    touch(`${h.key}.capabilities`);
                                    setHost(i, j, {
                                      capabilities: e.target.checked
                                        ? [...h.capabilities, c]
                                        : h.capabilities.filter((x) => x !== c),
                                    });
                                  }}
                                  className="size-4 rounded accent-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
                                />
                                <span>
                                  <span className="font-mono font-medium">{c}</span> ({CAPABILITY_HELP[c]})
                                </span>
                              </label>
                            ))}
                          </div>
                          {h.capabilities.length === 0 && (
                            <p className="mt-1 text-xs text-slate-500">None checked: the extension uses pull.</p>
                          )}
                          <FieldMessage id={`${id}-${h.key}-caps-error`} message={capsMessage} />
                        </fieldset>
                      </li>
                    );
                  })}
                </ul>
                <Button
                  variant="ghost"
                  className="mt-2"
                  disabled={locked}
                  onClick={() => setMirror(i, { hosts: [...m.hosts, emptyHost()] })}
                >
                  <Plus aria-hidden className="size-4" />
                  Add a mirror host
                </Button>
              </li>
            ))}
          </ol>
        )}
        <Button disabled={locked} onClick={() => update([...rows, emptyMirror()])}>
          <Plus aria-hidden className="size-4" />
          Add an upstream registry
        </Button>
        <p className="text-xs text-slate-500">
          <span className="font-mono">push</span> is not offered: the extension trusts a mirror to fetch only (pull,
          resolve); pushes go to the upstream.
        </p>

        {refused.unplaced.length > 0 || (change.error != null && !change.refusal?.errors?.length) ? (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>
            {refused.unplaced.length > 0
              ? refused.unplaced.map((p) => `${p.field}: ${p.detail}`).join("; ")
              : (change.error as Error).message}{" "}
            Your input is kept.
          </p>
        ) : change.error != null ? (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>The server refused a value; its reason is shown beside the
            field. Your input is kept.
          </p>
        ) : null}
        {saved && !dirty && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md bg-emerald-50 p-2.5 text-emerald-900 ring-1 ring-inset ring-emerald-600/20"
          >
            <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            Saved. The nodes get the new files as the shoot is reconciled, and new nodes as the pools roll.
          </p>
        )}

        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <Button
            type="submit"
            variant="primary"
            disabled={saving || !dirty || local.length > 0 || !operate.allowed || !!change.conflict}
            aria-describedby={describedBy(notAllowed) ?? (blocker && dirty ? `${id}-blocked` : undefined)}
          >
            <Save aria-hidden className="size-4" />
            {saving ? "Saving…" : rows.length === 0 && dirty ? "Remove the mirrors" : "Save mirrors"}
          </Button>
          <Button onClick={() => rebase(shoot)} disabled={!dirty || saving}>
            <Undo2 aria-hidden className="size-4" />
            Undo my edits
          </Button>
          {notAllowed ? (
            <NotAllowed id={`${id}-not-allowed`} allowance={operate} className="basis-full" />
          ) : blocker && dirty ? (
            <span id={`${id}-blocked`} className="text-xs font-medium text-red-700" aria-live="polite">
              Not ready to save. {blocker}
            </span>
          ) : (
            <span className="text-xs text-slate-500" aria-live="polite">
              {dirty ? "Unsaved changes." : "No changes."}
            </span>
          )}
        </div>
      </form>

      <section aria-labelledby={`${id}-preview`} className="mt-4 border-t border-slate-100 pt-4 text-sm">
        <h3 id={`${id}-preview`} className="flex items-center gap-1.5 text-xs font-semibold uppercase text-slate-500">
          <FileCode2 aria-hidden className="size-3.5" />
          The files on each node{dirty ? " (as edited, not saved)" : ""}
        </h3>
        {files.length === 0 ? (
          <p className="mt-2 text-slate-600">No hosts.toml: no upstream has mirrors.</p>
        ) : (
          <div className="mt-2 space-y-3" data-testid="hosts-toml-preview">
            {files.map((f) => (
              <figure key={f.path} className="min-w-0">
                <figcaption className="font-mono text-xs text-slate-700 [overflow-wrap:anywhere]">{f.path}</figcaption>
                <pre className="mt-1 overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800 ring-1 ring-inset ring-slate-200">
                  {f.content}
                </pre>
              </figure>
            ))}
          </div>
        )}
        <ul className="mt-3 list-disc space-y-1 pl-5 text-xs text-slate-600">
          <li>
            A change reaches the nodes as the shoot is reconciled (gardener-node-agent rewrites the files) and new nodes
            as the worker pools roll; nothing restarts your workloads.
          </li>
          <li>
            Custom containerd configuration: containerd imports{" "}
            <code className="font-mono">/etc/containerd/conf.d/*.toml</code> and merges it by section, not by key (a
            file that sets a section replaces that whole section). Only nodes created since Gardener v1.51 have the
            import; older nodes are not affected. Do not configure <code className="font-mono">registry.mirrors</code>{" "}
            there: it is deprecated, and containerd does not support it beside the hosts directory.
          </li>
        </ul>
      </section>
    </Panel>
  );
}
