"use client";

// The lifecycle page of one shoot: what is wrong now, what will happen next and when, why, and
// what can be done about it, in that order.
import dynamic from "next/dynamic";
import Link from "next/link";
import { AlertTriangle, ChevronRight, Moon } from "lucide-react";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { useEffect } from "react";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { usePermissions } from "@/components/use-permissions";
import { StatusBadge } from "@/components/ui/status-badges";
import { useMounted } from "@/components/ui/time";
import { LABEL_STATUS, shootStatusLabel } from "@/lib/engine/status-label";
import { profileReferenceOf } from "@/lib/gardener/profile-reference";
import { cloudProfileNameOf } from "@/lib/gardener/types";
import type { Shoot } from "@/lib/ui/api-types";
import { namespacedCloudProfilePage } from "@/lib/ui/page-links";
import { RequestError } from "@/lib/ui/api";
import type { StatusLabel } from "@/lib/ui/status";
import { ExpiryOutlook } from "./expiry-outlook";
import { MaintenanceEditor } from "./maintenance-editor";
import { PendingPoolRollouts, RunningKubernetes } from "./running-version";
import { ShootActions } from "./shoot-actions";
import { ShootLinks } from "./shoot-links";
import { useShoot } from "./use-shoot";

// The timeline's chart library is the page's heaviest code: it loads after the page is
// interactive, with a placeholder of its size until then.
const VersionTimeline = dynamic(() => import("./version-timeline").then((m) => m.VersionTimeline), {
  ssr: false,
  loading: () => (
    <Panel title="Version timeline">
      <LoadingBlock label="Loading the version timeline" lines={7} />
    </Panel>
  ),
});

// The panels below the first screen (health, nodes, history, the seed, tolerations, mirrors,
// endpoints) are half of the page's code and of its first render, and each asks the API for its
// own part: they load after the page is interactive, each with a placeholder under its title, so
// the outlook, the timeline and the maintenance settings are not held up by them (at 100,000
// shoots their code and render were most of the time until the page responded).
const belowTheFold = <P,>(title: string, load: () => Promise<React.ComponentType<P>>) =>
  dynamic(load, {
    ssr: false,
    loading: () => (
      <Panel title={title}>
        <LoadingBlock label={`Loading ${title.toLowerCase()}`} lines={3} />
      </Panel>
    ),
  });
const ShootHealth = belowTheFold("Health", () => import("./shoot-health").then((m) => m.ShootHealth));
const ShootNodesPanel = belowTheFold("Nodes", () => import("./nodes-panel").then((m) => m.ShootNodesPanel));
const ShootHistory = belowTheFold("History", () => import("./shoot-history").then((m) => m.ShootHistory));
const MigrationPanel = belowTheFold("Control plane seed", () =>
  import("./migration-panel").then((m) => m.MigrationPanel),
);
const TolerationsPanel = belowTheFold("Seed tolerations", () =>
  import("./tolerations-panel").then((m) => m.TolerationsPanel),
);
const RegistryMirrorsPanel = belowTheFold("containerd registry mirrors", () =>
  import("./registry-mirrors-panel").then((m) => m.RegistryMirrorsPanel),
);
const HibernationScheduleEditor = belowTheFold("Hibernation schedule", () =>
  import("@/components/hibernation/hibernation-schedule-editor").then((m) => m.HibernationScheduleEditor),
);
const EndpointsPanel = belowTheFold("Endpoints and ports", () =>
  import("./endpoints-panel").then((m) => m.EndpointsPanel),
);

export function ShootLifecycle({
  namespace,
  name,
  dashboardUrl,
}: {
  namespace: string;
  name: string;
  /** ALMANAC_DASHBOARD_URL, when set: the page links the cluster there. */
  dashboardUrl?: string;
}) {
  const { data: shoot, error, isPending, refetch } = useShoot(namespace, name);
  const mounted = useMounted();
  const { error: rolesError } = usePermissions(namespace);
  const ready = mounted && shoot !== undefined;
  useEffect(() => {
    // For npm run bench:ui: the moment the page has committed its panels and responds.
    if (ready) performance.mark("almanac:lifecycle-ready");
  }, [ready]);
  const crumbs = (
    <nav aria-label="Breadcrumb" className="flex items-center gap-1">
      <Link href="/shoots" className="hover:text-slate-900 hover:underline">
        Fleet
      </Link>
      <ChevronRight aria-hidden className="size-3.5" />
      <Link
        href={`/shoots?namespace=${encodeURIComponent(namespace)}`}
        className="hover:text-slate-900 hover:underline"
      >
        {namespace}
      </Link>
    </nav>
  );
  if (isPending) {
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <LoadingBlock label="Loading the cluster" lines={8} />
          </div>
          <LoadingBlock label="Loading" lines={6} />
        </div>
      </div>
    );
  }
  if (!shoot) {
    const missing = error instanceof RequestError && error.status === 404;
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <ErrorState
          title={missing ? "This cluster does not exist" : "The cluster could not be loaded"}
          error={error}
          onRetry={missing ? undefined : () => void refetch()}
        />
      </div>
    );
  }
  const label = (shoot.metadata.labels?.[LABEL_STATUS] ?? shootStatusLabel(shoot)) as StatusLabel;
  // The panels show times in the browser's zone and relative to now, so they render once
  // mounted; data-lifecycle-ready then marks the page interactive (npm run bench:ui waits for it).
  return (
    <div data-lifecycle-ready={mounted ? "" : undefined}>
      <PageHeader
        eyebrow={crumbs}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {name}
            <StatusBadge label={label} />
            {shoot.spec.hibernation?.enabled && (
              <span className="inline-flex items-center gap-1 text-sm font-normal text-slate-500">
                <Moon aria-hidden className="size-4" />
                Hibernated
              </span>
            )}
          </span>
        }
        description={
          <span data-testid="shoot-versions">
            Kubernetes <RunningKubernetes shoot={shoot} />
            {` on cloud profile `}
            <ShootProfileName shoot={shoot} />
            {`, ${shoot.spec.region ? `region ${shoot.spec.region}, ` : ""}seed ${shoot.status?.seedName ?? shoot.spec.seedName ?? "not scheduled"}.`}
          </span>
        }
        actions={<ShootActions shoot={shoot} />}
      />
      <PendingPoolRollouts shoot={shoot} />
      <ShootLinks shoot={shoot} dashboardUrl={dashboardUrl} />
      {error && (
        // A failed refresh keeps the page (and any edits in progress) with what was loaded last.
        <div className="mb-6">
          <ErrorState
            title={
              error instanceof RequestError && error.status === 404
                ? "This cluster no longer exists; showing what was loaded last"
                : "Refreshing the cluster failed; showing what was loaded last"
            }
            error={error}
            onRetry={() => void refetch()}
          />
        </div>
      )}
      {rolesError != null && (
        // The controls stay enabled then: the server still refuses what the role does not allow.
        <p role="status" className="mb-6 flex items-start gap-2 text-sm text-amber-800">
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <span>
            What your role allows could not be loaded ({(rolesError as Error).message}), so every action is offered; the
            server refuses what your role does not allow.
          </span>
        </p>
      )}
      {mounted ? (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <div className="min-w-0 space-y-6 xl:col-span-2">
            <ExpiryOutlook shoot={shoot} />
            <VersionTimeline shoot={shoot} />
            <ShootHealth shoot={shoot} />
            <ShootNodesPanel shoot={shoot} />
            <ShootHistory shoot={shoot} />
          </div>
          <div className="min-w-0 space-y-6">
            <MaintenanceEditor shoot={shoot} />
            <HibernationScheduleEditor shoot={shoot} />
            <MigrationPanel shoot={shoot} />
            <TolerationsPanel shoot={shoot} />
            <RegistryMirrorsPanel shoot={shoot} />
            <EndpointsPanel shoot={shoot} />
          </div>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
          <div className="xl:col-span-2">
            <LoadingBlock label="Loading the cluster" lines={8} />
          </div>
          <LoadingBlock label="Loading" lines={6} />
        </div>
      )}
    </div>
  );
}

/** The profile the shoot names; a namespaced one links to its page, where it is set against its parent. */
function ShootProfileName({ shoot }: { shoot: Shoot }) {
  const reference = profileReferenceOf(shoot);
  if (reference?.kind !== "NamespacedCloudProfile") return <>{cloudProfileNameOf(shoot)}</>;
  return (
    <>
      <Link
        href={namespacedCloudProfilePage(reference.namespace ?? "", reference.name)}
        className="text-accent-700 hover:underline"
      >
        {reference.name}
      </Link>
      {" (the project's namespaced profile)"}
    </>
  );
}
