"use client";

// A manual Kubernetes update: only the versions gardener-apiserver allows (newer, not expired, at
// most the next minor), grouped "Patch" and "Next minor", each with its classification and
// expiry. A minor update cannot be undone, so it asks for the cluster's name.
import { AlertTriangle, ArrowUpCircle, CheckCircle2, FlaskConical, Info } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { ClassificationBadge } from "@/components/ui/status-badges";
import { DualTime, RelativeTime } from "@/components/ui/time";
import type { Shoot } from "@/lib/ui/api-types";
import { guardedPatch } from "@/lib/client/guarded-patch";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { formatDate } from "@/lib/ui/time";
import { classificationAt, expiryTime } from "@/lib/engine/classification";
import { isMinorUpdate, kubernetesUpdateTargets, type VersionTarget } from "@/lib/ui/version-targets";
import { FieldMessage, inputClass } from "./field-message";
import { useShootPart } from "./use-shoot";
import { getMaintenancePlan } from "@/lib/api/operations/shoots";
import { shootProfileName, useShootCloudProfile } from "./use-shoot-cloud-profile";

export function VersionUpdateDialog({ shoot, onClose }: { shoot: Shoot; onClose: () => void }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const profileName = shootProfileName(shoot);
  const change = useShootChange(namespace, name);
  const profile = useShootCloudProfile(shoot);
  const plan = useShootPart(getMaintenancePlan, namespace, name);
  // The version and resourceVersion this dialog was opened on: the update is meant for them.
  const [base, setBase] = useState({
    version: shoot.spec.kubernetes.version,
    resourceVersion: shoot.metadata.resourceVersion,
  });
  const [now] = useState(() => Date.now());
  const [choice, setChoice] = useState<string | null>(null);
  const [typedName, setTypedName] = useState("");

  const currentEntry = profile.data?.spec.kubernetes.versions.find((v) => v.version === base.version);
  const currentClass = currentEntry ? classificationAt(currentEntry, now) : undefined;
  const currentExpiry = currentEntry ? expiryTime(currentEntry) : undefined;
  const targets = profile.data
    ? kubernetesUpdateTargets(profile.data.spec.kubernetes.versions, base.version, now)
    : undefined;
  const chosen = targets && [...targets.patch, ...targets.nextMinor].find((t) => t.version === choice);
  const minor = !!chosen && isMinorUpdate(base.version, chosen.version);
  const confirmed = !minor || typedName.trim() === name;
  const conflict = change.conflict?.current;
  // The version now set, and whether someone else had set it first.
  const done =
    chosen && (change.result?.outcome === "saved" || change.result?.outcome === "applied")
      ? { version: chosen.version, byOthers: change.result.outcome === "applied" }
      : null;
  const versionMessage = change.fields({ version: "spec.kubernetes.version" }).messages.version;
  const confined = shoot.spec.maintenance?.confineSpecUpdateRollout === true;
  const ownVersions = (shoot.spec.provider?.workers ?? []).filter((w) => w.kubernetes?.version);

  function submit() {
    if (!chosen || !confirmed) return;
    // Only the control plane's version decides after a 409: the cluster's status or other
    // settings changing meanwhile leave this choice as meant.
    change.edit({
      resourceVersion: base.resourceVersion,
      patch: (resourceVersion) => guardedPatch(resourceVersion, { kubernetes: { version: chosen.version } }),
      part: (s) => s.spec.kubernetes.version,
      base: base.version,
      wanted: chosen.version,
    });
  }

  const footer = done ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button
        variant={minor ? "danger" : "primary"}
        onClick={submit}
        disabled={!chosen || !confirmed || change.pending || !!conflict}
      >
        <ArrowUpCircle aria-hidden className="size-4" />
        {change.pending ? "Updating…" : chosen ? `Update to ${chosen.version}` : "Choose a version"}
      </Button>
    </>
  );

  return (
    <Dialog
      open
      onClose={onClose}
      wide
      title="Update the Kubernetes version"
      footer={footer}
      description={
        <>
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            {name} runs Kubernetes <span className="font-mono font-medium text-slate-800">{base.version}</span>
            {currentClass && <ClassificationBadge classification={currentClass} />}
            {currentExpiry !== undefined && Number.isFinite(currentExpiry) && (
              <span>
                {currentExpiry > now ? "expires" : "expired"} {formatDate(currentExpiry)} (
                <RelativeTime at={currentExpiry} now={now} />)
              </span>
            )}
          </span>
          <span className="mt-1 block">
            Only the versions of cloud profile {profileName} this cluster may move to are offered.
          </span>
        </>
      }
    >
      {done ? (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-600/20"
        >
          <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          <span>
            {done.byOthers ? "Someone else made this update first" : "Saved"}: Kubernetes {base.version} →{" "}
            {done.version}.{" "}
            {confined && plan.data ? (
              <>
                The rollout waits for the maintenance window (<DualTime at={plan.data.at} />
                ).
              </>
            ) : (
              "The rollout starts now; this page follows it."
            )}
          </span>
        </p>
      ) : (
        <div className="space-y-4">
          {profile.isPending && <LoadingBlock label="Loading the cloud profile's versions" lines={5} />}
          {profile.error && (
            <ErrorState
              title={`Cloud profile ${profileName} could not be loaded`}
              error={profile.error}
              onRetry={() => void profile.refetch()}
            />
          )}
          {targets && (
            <div
              role="radiogroup"
              aria-label="Target version"
              aria-describedby={versionMessage ? "version-error" : undefined}
              className="space-y-4"
            >
              <TargetGroup
                title="Patch"
                hint={`Newer patches of ${base.version.split(".").slice(0, 2).join(".")}`}
                from={base.version}
                targets={targets.patch}
                choice={choice}
                now={now}
                onChoose={setChoice}
                empty={`No newer ${base.version.split(".").slice(0, 2).join(".")} patch is available.`}
              />
              <TargetGroup
                title={`Next minor (${targets.nextMinorLine})`}
                hint="A minor update cannot be undone"
                from={base.version}
                targets={targets.nextMinor}
                choice={choice}
                now={now}
                onChoose={setChoice}
                empty={`Cloud profile ${profileName} offers no usable ${targets.nextMinorLine} version yet.`}
              />
              {targets.laterLines.length > 0 && (
                <p className="flex items-start gap-2 text-xs text-slate-600">
                  <Info aria-hidden className="mt-px size-3.5 shrink-0 text-slate-400" />
                  {targets.laterLines.join(", ")} {targets.laterLines.length === 1 ? "is" : "are"} not offered: upgrades
                  must be performed one minor version at a time. Update to {targets.nextMinorLine} first.
                </p>
              )}
            </div>
          )}
          <FieldMessage id="version-error" message={versionMessage} />

          {chosen?.classification === "preview" && (
            <p className="flex items-start gap-2 rounded-lg bg-violet-50 p-3 text-sm text-violet-900 ring-1 ring-inset ring-violet-600/20">
              <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-violet-600" />
              <span>
                <span className="font-semibold">{chosen.version} is a preview version.</span> It is not meant for
                production clusters, may change before it is supported, and automatic updates will not move past it
                until a newer version is supported.
              </span>
            </p>
          )}
          {minor && chosen && (
            <div className="space-y-3 rounded-lg bg-red-50 p-3 text-sm text-red-900 ring-1 ring-inset ring-red-600/20">
              <p className="flex items-start gap-2">
                <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
                <span>
                  <span className="font-semibold">
                    Minor update {base.version} → {chosen.version}. This action cannot be undone: Kubernetes does not
                    support downgrades.
                  </span>{" "}
                  APIs removed in {chosen.version.split(".").slice(0, 2).join(".")} stop working; check your manifests
                  and add-ons first.
                </span>
              </p>
              <div className="pl-6">
                <label htmlFor="confirm-name" className="block text-xs font-medium">
                  Type the cluster name <span className="font-mono font-semibold">{name}</span> to confirm
                </label>
                <input
                  id="confirm-name"
                  value={typedName}
                  onChange={(e) => setTypedName(e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  className={inputClass(false, "mt-1 w-64 font-mono")}
                />
              </div>
            </div>
          )}
          {chosen && (
            <p className="text-xs text-slate-600">
              {confined && plan.data ? (
                <>
                  This cluster rolls out changes only in its maintenance window, so the update starts at{" "}
                  <DualTime at={plan.data.at} />.
                </>
              ) : (
                "The update rolls out right after saving: control-plane components restart one after another, then the worker pools follow."
              )}
              {ownVersions.length > 0 && (
                <>
                  {" "}
                  Worker pools with their own version keep it:{" "}
                  {ownVersions.map((w) => `${w.name} (${w.kubernetes?.version})`).join(", ")}.
                </>
              )}
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
                it now runs Kubernetes {conflict.spec.kubernetes.version}. Nothing was saved.
              </p>
              <Button
                className="mt-2"
                onClick={() => {
                  setBase({
                    version: conflict.spec.kubernetes.version,
                    resourceVersion: conflict.metadata.resourceVersion,
                  });
                  change.reset();
                  setChoice(null);
                  setTypedName("");
                }}
              >
                Show the versions for {conflict.spec.kubernetes.version}
              </Button>
            </div>
          )}
          {change.error != null && !versionMessage && (
            <ErrorState title="The version was not changed" error={change.error} />
          )}
        </div>
      )}
    </Dialog>
  );
}

function TargetGroup({
  title,
  hint,
  from,
  targets,
  choice,
  now,
  onChoose,
  empty,
}: {
  title: string;
  hint: string;
  from: string;
  targets: readonly VersionTarget[];
  choice: string | null;
  now: number;
  onChoose: (version: string) => void;
  empty: string;
}) {
  return (
    <section aria-label={title}>
      <h3 className="flex items-baseline gap-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
        {title}
        <span className="font-normal normal-case tracking-normal text-slate-500">{hint}</span>
      </h3>
      {targets.length === 0 ? (
        <p className="mt-1.5 text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="mt-1.5 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {targets.map((t) => (
            <li key={t.version}>
              <label
                className={`flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 hover:bg-slate-50 ${choice === t.version ? "bg-accent-50" : ""}`}
              >
                {/* No aria-label: the radio's name is the whole label, so screen readers hear the
                    classification, "Recommended" and the expiry too ("1.30.11 to 1.30.14 supported …"). */}
                <input
                  type="radio"
                  name="target-version"
                  value={t.version}
                  checked={choice === t.version}
                  onChange={() => onChoose(t.version)}
                  className="size-4 accent-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
                />
                <span className="font-mono text-sm text-slate-900">
                  {from}
                  <span aria-hidden> → </span>
                  <span className="sr-only"> to </span>
                  <span className="font-semibold">{t.version}</span>
                </span>
                <ClassificationBadge classification={t.classification} />
                {t.recommended && (
                  <Badge tone="grey" title="The newest supported version of this group">
                    Recommended
                  </Badge>
                )}
                <span className="ml-auto text-right text-xs text-slate-500">
                  {t.expiresAt ? (
                    <>
                      Expires {formatDate(t.expiresAt)} (<RelativeTime at={t.expiresAt} now={now} />)
                    </>
                  ) : (
                    "No expiration date"
                  )}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
