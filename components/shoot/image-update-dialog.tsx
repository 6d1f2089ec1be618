"use client";

// A manual machine image update of one or more worker pools: per pool, the newer versions that
// can run it (its architecture, runtime and kubelet), with classification and expiry, and the
// profile's other images it may switch to. Every node of an updated pool is drained and replaced,
// which the dialog says before anything is sent.
import { AlertTriangle, CheckCircle2, FlaskConical, HardDrive } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { ClassificationBadge } from "@/components/ui/status-badges";
import { RelativeTime } from "@/components/ui/time";
import type { Shoot } from "@/lib/ui/api-types";
import { guardedPatch } from "@/lib/client/guarded-patch";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { formatDate } from "@/lib/ui/time";
import { machineImageTargets, type ImageTargets, type VersionTarget } from "@/lib/ui/version-targets";
import { FieldMessage, inputClass } from "./field-message";
import { shootProfileName, useShootCloudProfile } from "./use-shoot-cloud-profile";

const CLASSIFICATION_WORD: Record<string, string> = {
  preview: "preview",
  supported: "supported",
  deprecated: "deprecated",
};

export function ImageUpdateDialog({ shoot, onClose }: { shoot: Shoot; onClose: () => void }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const profileName = shootProfileName(shoot);
  const change = useShootChange(namespace, name);
  const profile = useShootCloudProfile(shoot);
  // The shoot as the dialog opened on it: choices are made against these versions.
  const [base, setBase] = useState(shoot);
  const [now] = useState(() => Date.now());
  const [choices, setChoices] = useState<Record<string, string>>({});
  const conflict = change.conflict?.current;

  const workers = base.spec.provider?.workers ?? [];
  const pools: ImageTargets[] = profile.data
    ? workers.flatMap(
        (w) => machineImageTargets(profile.data, w, w.kubernetes?.version ?? base.spec.kubernetes.version, now) ?? [],
      )
    : [];
  // A choice is "image version" (an option's value); another image than the pool's own is a switch.
  const chosen = Object.entries(choices)
    .filter(([, value]) => value !== "")
    .map(([pool, value]) => {
      const [image, version] = value.split(" ");
      const own = pools.find((p) => p.pool === pool)?.image;
      return { pool, image, version, switched: image !== own };
    });
  const switches = chosen.filter((c) => c.switched);
  // Each pool's field stands for its entry in spec.provider.workers.
  const poolMessages = change.fields(
    Object.fromEntries(workers.map((w, index) => [w.name, `spec.provider.workers[${index}]`])),
  ).messages;
  const poolMessage = (pool: string) => poolMessages[pool];
  const placed = chosen.some((c) => poolMessage(c.pool));
  const targetsOf = (pool: string, image: string) => {
    const p = pools.find((x) => x.pool === pool);
    return p?.image === image ? p.targets : p?.otherImages.find((o) => o.image === image)?.targets;
  };
  const previews = chosen.filter(
    (c) => targetsOf(c.pool, c.image)?.find((t) => t.version === c.version)?.classification === "preview",
  );
  const imageOf = (s: Shoot, pool: string) => {
    const image = s.spec.provider?.workers?.find((w) => w.name === pool)?.machine.image;
    return image ? `${image.name} ${image.version}` : undefined;
  };
  const described = (c: (typeof chosen)[number]) => (c.switched ? `${c.image} ${c.version}` : c.version);
  // "pool → version" per updated pool, whether someone else had made the update first, and
  // whether the saved shoot confines its rollouts to the window (it may have changed meanwhile).
  const result = change.result;
  const done =
    result?.outcome === "saved" || result?.outcome === "applied"
      ? {
          updates: chosen.map((c) => `${c.pool} → ${described(c)}`),
          byOthers: result.outcome === "applied",
          confined: result.shoot.spec.maintenance?.confineSpecUpdateRollout === true,
        }
      : null;

  function submit() {
    if (chosen.length === 0) return;
    // Only the chosen pools' images decide after a 409: while they still run the versions the
    // choice was made for, it applies as it is.
    change.edit({
      resourceVersion: base.metadata.resourceVersion,
      patch: (resourceVersion) =>
        guardedPatch(resourceVersion, {
          provider: {
            workers: chosen.map((c) => ({
              name: c.pool,
              machine: { image: c.switched ? { name: c.image, version: c.version } : { version: c.version } },
            })),
          },
        }),
      part: (s) => chosen.map((c) => imageOf(s, c.pool)),
      base: chosen.map((c) => imageOf(base, c.pool)),
      wanted: chosen.map((c) => `${c.image} ${c.version}`),
    });
  }

  const footer = done ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button variant="primary" onClick={submit} disabled={chosen.length === 0 || change.pending || !!conflict}>
        {change.pending
          ? "Updating…"
          : chosen.length === 0
            ? "Choose a version"
            : `Update ${chosen.length === 1 ? "1 pool" : `${chosen.length} pools`}`}
      </Button>
    </>
  );

  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title="Update machine images"
      footer={footer}
      description={`Worker pools of ${name}, with the newer versions and the other images of cloud profile ${profileName} that can run them.`}
    >
      {done ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-600/20"
        >
          <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          <span>
            {done.byOthers ? "Someone else made these updates first" : "Saved"}: {done.updates.join(", ")}.{" "}
            {done.confined
              ? "The nodes are replaced in the next maintenance window."
              : "The nodes are being replaced now; this page follows it."}
          </span>
        </p>
      ) : (
        <div className="space-y-4">
          {profile.isPending && <LoadingBlock label="Loading the cloud profile's images" lines={4} />}
          {profile.error && (
            <ErrorState
              title={`Cloud profile ${profileName} could not be loaded`}
              error={profile.error}
              onRetry={() => void profile.refetch()}
            />
          )}
          {profile.data && pools.length === 0 && (
            <p className="text-sm text-slate-600">No worker pool of this cluster names a machine image version.</p>
          )}
          {pools.length > 0 && (
            <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
              {pools.map((p) => {
                const id = `image-${p.pool}`;
                const message = poolMessage(p.pool);
                return (
                  <li key={p.pool} className="flex flex-wrap items-start gap-x-4 gap-y-2 px-3 py-3">
                    <HardDrive aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
                    <div className="min-w-0 flex-1">
                      <p className="text-sm font-medium text-slate-900">
                        Pool “{p.pool}” <span className="font-normal text-slate-500">{p.image}</span>
                      </p>
                      <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                        <span className="font-mono text-[13px] text-slate-900">{p.current}</span>
                        {p.currentClassification && <ClassificationBadge classification={p.currentClassification} />}
                        {p.currentExpiresAt && (
                          <span>
                            {Date.parse(p.currentExpiresAt) > now ? "expires" : "expired"}{" "}
                            {formatDate(p.currentExpiresAt)} (<RelativeTime at={p.currentExpiresAt} now={now} />)
                          </span>
                        )}
                      </p>
                    </div>
                    <div className="w-64">
                      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
                        Update pool {p.pool} to
                      </label>
                      <select
                        id={id}
                        value={choices[p.pool] ?? ""}
                        disabled={p.targets.length === 0 && p.otherImages.length === 0}
                        onChange={(e) => setChoices((c) => ({ ...c, [p.pool]: e.target.value }))}
                        aria-invalid={!!message}
                        aria-describedby={message ? `${id}-error` : undefined}
                        className={inputClass(!!message, "mt-1 w-full")}
                      >
                        <option value="">
                          {p.targets.length === 0 && p.otherImages.length === 0
                            ? "No newer version"
                            : `Keep ${p.current}${p.targets.length === 0 ? " (no newer version)" : ""}`}
                        </option>
                        {p.targets.length > 0 && (
                          <optgroup label={`Newer ${p.image}`}>
                            {p.targets.map((t) => (
                              <TargetOption key={t.version} image={p.image} target={t} />
                            ))}
                          </optgroup>
                        )}
                        {p.otherImages.map((o) => (
                          <optgroup key={o.image} label={`Switch to ${o.image}`}>
                            {o.targets.map((t) => (
                              <TargetOption key={t.version} image={o.image} target={t} switched />
                            ))}
                          </optgroup>
                        ))}
                      </select>
                      <FieldMessage id={`${id}-error`} message={message} />
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {chosen.length > 0 && (
            <p className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-600/25">
              <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
              <span>
                <span className="font-semibold">Disruptive: </span>every node of{" "}
                {chosen.map((c) => `“${c.pool}”`).join(", ")} is drained and replaced by a node with the new image
                (rolling update within the pool&apos;s maxSurge and maxUnavailable). Images cannot be downgraded
                afterwards.
                {switches.length > 0 && (
                  <>
                    {" "}
                    {switches
                      .map((c) => `Pool “${c.pool}” is rolled onto another image, ${c.image} ${c.version}`)
                      .join("; ")}
                    : its nodes are replaced, not updated.
                  </>
                )}
              </span>
            </p>
          )}
          {previews.length > 0 && (
            <p className="flex items-start gap-2 rounded-lg bg-violet-50 p-3 text-sm text-violet-900 ring-1 ring-inset ring-violet-600/20">
              <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-violet-600" />
              <span>
                {previews.map(described).join(", ")}{" "}
                {previews.length === 1 ? "is a preview version" : "are preview versions"}: not meant for production
                pools.
              </span>
            </p>
          )}
          {conflict && (
            <div
              role="alert"
              className="rounded-lg bg-red-50 p-3 text-sm text-red-900 ring-1 ring-inset ring-red-600/20"
            >
              <p>
                <span className="font-semibold">
                  This cluster was changed by someone else since you opened this dialog:
                </span>{" "}
                the images of the pools you chose changed. Nothing was saved.
              </p>
              <Button
                className="mt-2"
                onClick={() => {
                  setBase(conflict);
                  change.reset();
                  setChoices({});
                }}
              >
                Show the current images
              </Button>
            </div>
          )}
          {change.error != null && !placed && <ErrorState title="The images were not changed" error={change.error} />}
        </div>
      )}
    </Dialog>
  );
}

/** A version a pool may move to; its value is "image version", so a switch names its image. */
function TargetOption({ image, target, switched }: { image: string; target: VersionTarget; switched?: boolean }) {
  return (
    <option value={`${image} ${target.version}`}>
      {switched ? `${image} ` : ""}
      {target.version} ({CLASSIFICATION_WORD[target.classification]}
      {target.recommended ? ", recommended" : ""}
      {target.expiresAt ? `, expires ${formatDate(target.expiresAt)}` : ""})
    </option>
  );
}
