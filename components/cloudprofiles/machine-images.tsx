"use client";

// The profile's machine images: each with its update strategy (which decides where automatic and
// forced updates may move a worker pool) and its versions, newest first, with classification,
// expiration and how many worker pools run each.
import { classificationAt, expiryTime } from "@/lib/engine/classification";
import { DAY_MS } from "@/lib/engine/time-units";
import { compareVersions, tryParseVersion } from "@/lib/engine/version";
import type { MachineImage, MachineImageVersion } from "@/lib/gardener/types";
import { Badge } from "@/components/ui/badge";
import { ClassificationBadge } from "@/components/ui/status-badges";
import { imageKey, type ProfileUsage } from "@/lib/ui/profile-usage";
import { formatBoth, formatDate, formatRelative } from "@/lib/ui/time";

/** The update strategies in plain words (Gardener's shoot-versions documentation). */
const STRATEGY_TEXT: Record<string, string> = {
  patch:
    "Updates stay on the latest patch of the current minor. An expired version already on its latest patch is forced to the next higher minor.",
  minor:
    "Updates move to the latest minor and patch of the current major. An expired version already on the latest of its major is forced to the next higher major.",
  major:
    "Updates move to the overall latest version. When that latest version itself expires, forced updates fail: the image has reached its end of life.",
};

function newestFirst(a: MachineImageVersion, b: MachineImageVersion) {
  const [va, vb] = [tryParseVersion(a.version), tryParseVersion(b.version)];
  if (va && vb) return compareVersions(vb, va);
  return va ? -1 : vb ? 1 : a.version.localeCompare(b.version);
}

export function MachineImages({
  images,
  now,
  usage,
}: {
  images: readonly MachineImage[];
  now: number;
  usage: ProfileUsage | undefined;
}) {
  if (images.length === 0)
    return <p className="text-sm text-slate-600">This cloud profile offers no machine images.</p>;
  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
      {images.map((image) => (
        <ImageCard key={image.name} image={image} now={now} usage={usage} />
      ))}
    </div>
  );
}

function ImageCard({ image, now, usage }: { image: MachineImage; now: number; usage: ProfileUsage | undefined }) {
  const strategy = image.updateStrategy ?? "major";
  const versions = [...(image.versions ?? [])].sort(newestFirst);
  return (
    // On a phone the versions table is wider than the screen: the card scrolls it sideways, and
    // takes focus so that the keyboard can too.
    <section
      aria-labelledby={`image-${image.name}`}
      tabIndex={0}
      className="relative min-w-0 overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <div className="min-w-0">
          <h3 id={`image-${image.name}`} className="font-semibold text-slate-900">
            {image.name}
          </h3>
          <p className="mt-0.5 max-w-md text-xs text-slate-600">
            {STRATEGY_TEXT[strategy] ?? `Unknown strategy "${strategy}".`}
          </p>
        </div>
        <Badge
          tone="grey"
          title={
            image.updateStrategy
              ? "Set in the cloud profile"
              : "Not set in the cloud profile: the API defaults it to major"
          }
        >
          Update strategy: {strategy}
          {image.updateStrategy ? "" : " (default)"}
        </Badge>
      </header>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Versions of {image.name}</caption>
        <thead className="text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">
              Version
            </th>
            <th scope="col" className="px-4 py-2">
              Classification
            </th>
            <th scope="col" className="px-4 py-2">
              Expiration
            </th>
            <th
              scope="col"
              className="px-4 py-2 text-right"
              title="Worker pools running this version (shoots in brackets)"
            >
              Pools
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {versions.map((v) => {
            const expires = expiryTime(v);
            const key = imageKey(image.name, v.version);
            const pools = usage?.images.get(key) ?? 0;
            const shoots = usage?.imageShoots.get(key) ?? 0;
            const soon = expires !== undefined && expires > now && expires - now <= 30 * DAY_MS;
            return (
              <tr key={v.version}>
                <td className="px-4 py-1.5">
                  <span className="font-mono text-slate-900">{v.version}</span>
                  {v.architectures && <div className="text-[11px] text-slate-500">{v.architectures.join(" · ")}</div>}
                </td>
                <td className="px-4 py-1.5">
                  <ClassificationBadge classification={classificationAt(v, now)} />
                </td>
                <td className={`px-4 py-1.5 ${soon ? "font-medium text-amber-900" : "text-slate-700"}`}>
                  {expires === undefined || !Number.isFinite(expires) ? (
                    <span className="text-slate-500">None</span>
                  ) : (
                    <span title={formatBoth(expires)} className="whitespace-nowrap">
                      {formatDate(expires)}
                      <span className={`block text-xs ${soon ? "" : "text-slate-500"}`}>
                        {formatRelative(expires, now)}
                      </span>
                    </span>
                  )}
                </td>
                <td className="px-4 py-1.5 text-right tabular-nums text-slate-900">
                  {usage === undefined ? (
                    "…"
                  ) : pools === 0 ? (
                    <span className="text-slate-500">–</span>
                  ) : (
                    <>
                      {pools} <span className="text-xs text-slate-500">({shoots})</span>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
