"use client";

// Ways out of the page: the shoot as YAML, its and its project's maintenance calendars (iCal),
// and the cluster in the Gardener dashboard when ALMANAC_DASHBOARD_URL is set.
import { CalendarDays, ExternalLink, FileCode2 } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { LINK_BUTTON } from "@/components/ui/download-links";
import type { Shoot } from "@/lib/ui/api-types";
import { gardenerDashboardUrl, namespaceCalendarUrl, shootCalendarUrl } from "@/lib/ui/export-links";
import { usePreload } from "./use-preload";

// The YAML dialog carries a YAML library (about half of the page's own code): it loads when opened.
const loadShootYamlDialog = () => import("./shoot-yaml-dialog").then((m) => m.ShootYamlDialog);
const ShootYamlDialog = dynamic(loadShootYamlDialog, { ssr: false });

export function ShootLinks({ shoot, dashboardUrl }: { shoot: Shoot; dashboardUrl?: string }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const [yaml, setYaml] = useState(false);
  usePreload(loadShootYamlDialog);
  return (
    <nav aria-label="Cluster links" className="mb-6 flex flex-wrap items-center gap-2">
      <button type="button" className={LINK_BUTTON} onClick={() => setYaml(true)} aria-haspopup="dialog">
        <FileCode2 aria-hidden className="size-4" />
        YAML
      </button>
      <a
        className={LINK_BUTTON}
        href={shootCalendarUrl(namespace, name)}
        download
        title="The next 30 days' maintenance windows and forced updates, as an iCalendar file"
      >
        <CalendarDays aria-hidden className="size-4" />
        Maintenance calendar
      </a>
      <a
        className={LINK_BUTTON}
        href={namespaceCalendarUrl(namespace)}
        download
        title={`The maintenance windows and forced updates of every cluster in ${namespace}, as an iCalendar file`}
      >
        <CalendarDays aria-hidden className="size-4" />
        Project calendar
      </a>
      {dashboardUrl && (
        <a
          className={LINK_BUTTON}
          href={gardenerDashboardUrl(dashboardUrl, namespace, name)}
          target="_blank"
          rel="noopener noreferrer"
        >
          <ExternalLink aria-hidden className="size-4" />
          Open in Gardener dashboard
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      )}
      {yaml && <ShootYamlDialog shoot={shoot} open onClose={() => setYaml(false)} />}
    </nav>
  );
}
