"use client";

// What a new run moves its clusters to: their maintenance now, a Kubernetes version (a minor's
// latest patch, an exact version, or each cluster's own minor's latest patch), or a machine image
// version, offered from the cloud profiles (what is usable now in at least one of them).
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useMounted, useNow } from "@/components/ui/time";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { cloudProfilesQuery } from "@/lib/client/queries";
import { targetChoices, type RunDraft } from "@/lib/ui/update-run-form";
import { ChoiceGroup, Problem } from "./form-controls";

const SELECT =
  "block w-full rounded-md border-0 bg-white py-1.5 pl-2.5 pr-8 text-sm text-slate-900 shadow-sm ring-1 ring-inset focus:outline-none focus:ring-2 focus:ring-inset";
const ring = (invalid: boolean) =>
  invalid ? "ring-red-400 focus:ring-red-500" : "ring-slate-300 focus:ring-accent-600";

export function TargetField({
  draft,
  onChange,
  problem,
}: {
  draft: RunDraft;
  onChange: (change: Partial<RunDraft>) => void;
  problem?: string;
}) {
  const ids = { kubernetes: useId(), image: useId(), version: useId(), error: useId() };
  const mounted = useMounted();
  // A slow clock: which versions are usable changes by the day.
  const now = useNow(60 * MINUTE_MS);
  const profiles = useQuery({ ...cloudProfilesQuery, staleTime: 5 * MINUTE_MS });
  // The clock only once mounted, so server and browser render the same choices.
  const choices = profiles.data && mounted ? targetChoices(profiles.data.items, now) : undefined;
  const image = choices?.images.find((i) => i.name === draft.imageName);
  const describedBy = problem ? ids.error : undefined;
  return (
    <div className="space-y-3">
      <ChoiceGroup
        legend="Target"
        name="target"
        value={draft.targetKind}
        onChange={(targetKind) => onChange({ targetKind })}
        options={[
          {
            value: "maintain",
            label: "Maintain now",
            hint: "What each cluster's next maintenance would do (its auto-updates, forced updates), now.",
          },
          { value: "kubernetes", label: "Kubernetes version", hint: "A minor's latest patch, or an exact version." },
          { value: "machineImage", label: "Machine image", hint: "A version of the workers' operating system image." },
        ]}
      />
      {draft.targetKind === "kubernetes" && (
        <div className="max-w-md">
          <label htmlFor={ids.kubernetes} className="mb-1 block text-sm font-medium text-slate-700">
            Kubernetes version
          </label>
          <select
            id={ids.kubernetes}
            value={draft.kubernetes}
            onChange={(e) => onChange({ kubernetes: e.target.value })}
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy}
            className={`${SELECT} ${ring(!!problem)}`}
          >
            <option value="">Choose a version…</option>
            <option value="latest-patch">Each cluster&apos;s own minor: its latest patch</option>
            {choices && (
              <>
                <optgroup label="A minor: its latest usable patch">
                  {choices.minors.map((m) => (
                    <option key={m} value={m}>
                      {m} (latest patch)
                    </option>
                  ))}
                </optgroup>
                <optgroup label="An exact version">
                  {choices.versions.map((v) => (
                    <option key={v.version} value={v.version}>
                      {v.version}
                      {v.classification !== "supported" ? ` (${v.classification})` : ""}
                    </option>
                  ))}
                </optgroup>
              </>
            )}
          </select>
          <p className="mt-1 text-xs text-slate-500">
            A minor update goes one minor at a time; the preview says which clusters cannot take it, and why.
          </p>
        </div>
      )}
      {draft.targetKind === "machineImage" && (
        <div className="grid max-w-xl gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.image} className="mb-1 block text-sm font-medium text-slate-700">
              Image
            </label>
            <select
              id={ids.image}
              value={draft.imageName}
              onChange={(e) => onChange({ imageName: e.target.value, imageVersion: "" })}
              aria-invalid={problem ? true : undefined}
              aria-describedby={describedBy}
              className={`${SELECT} ${ring(!!problem)}`}
            >
              <option value="">Choose an image…</option>
              {choices?.images.map((i) => (
                <option key={i.name} value={i.name}>
                  {i.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={ids.version} className="mb-1 block text-sm font-medium text-slate-700">
              Version
            </label>
            <select
              id={ids.version}
              value={draft.imageVersion}
              onChange={(e) => onChange({ imageVersion: e.target.value })}
              disabled={!image}
              aria-invalid={problem ? true : undefined}
              aria-describedby={describedBy}
              className={`${SELECT} ${ring(!!problem)} disabled:bg-slate-50 disabled:text-slate-400`}
            >
              <option value="">{image ? "Choose a version…" : "Choose the image first"}</option>
              {image?.versions.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </div>
        </div>
      )}
      {profiles.isError && (
        <p className="text-xs text-red-700">
          The cloud profiles could not be read, so no version is offered.{" "}
          <button type="button" className="underline" onClick={() => void profiles.refetch()}>
            Retry
          </button>
        </p>
      )}
      <Problem id={ids.error} text={problem} />
    </div>
  );
}
