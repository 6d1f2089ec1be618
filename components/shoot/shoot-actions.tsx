"use client";

// The lifecycle page's header actions: "Maintain now", "Update images" and "Update version", each
// with its dialog, and below them the cluster's operations (operation-actions.tsx). Each of the
// three needs the operator role on the cluster's project; below it, the buttons are disabled and
// say why.
// A maintain-now run is followed here (so it can be watched after its dialog is closed): the
// page refreshes live, and while the run is under way the shoot is also polled every second, in
// case the live connection is down.
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { ArrowUpCircle, CheckCircle2, HardDrive, Loader2, Wrench, XCircle } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { usePermissions } from "@/components/use-permissions";
import { blockingOperation, describeBlockingOperation } from "@/lib/engine/migration-admission";
import { ANNOTATION_OPERATION } from "@/lib/engine/operation-annotations";
import type { Shoot } from "@/lib/ui/api-types";
import { maintainProgress } from "@/lib/ui/maintain-now";
import { shootQuery } from "@/lib/client/queries";
import { MaintainNowDialog, type MaintainRun } from "./maintain-now-dialog";
import { OperationActions } from "./operation-actions";
import { usePreload } from "./use-preload";

// The update dialogs open only on a click: their code loads then, not with the page.
const loadVersionUpdateDialog = () => import("./version-update-dialog").then((m) => m.VersionUpdateDialog);
const loadImageUpdateDialog = () => import("./image-update-dialog").then((m) => m.ImageUpdateDialog);
const VersionUpdateDialog = dynamic(loadVersionUpdateDialog, { ssr: false });
const ImageUpdateDialog = dynamic(loadImageUpdateDialog, { ssr: false });

export function ShootActions({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const [dialog, setDialog] = useState<"maintain" | "version" | "images" | null>(null);
  usePreload(loadVersionUpdateDialog, loadImageUpdateDialog);
  // When "maintain now" was opened: its preview is what a run at that moment does.
  const [maintainOpenedAt, setMaintainOpenedAt] = useState(0);
  const openMaintain = () => {
    setMaintainOpenedAt(Date.now());
    setDialog("maintain");
  };
  const [run, setRun] = useState<MaintainRun | null>(null);
  const progress = run ? maintainProgress(shoot, run) : undefined;
  const underWay = progress?.step === "queued" || progress?.step === "rolling-out";
  useQuery({
    ...shootQuery(namespace, name),
    enabled: underWay,
    refetchInterval: underWay ? 1_000 : false,
  });

  const blocked = blockingOperation(shoot);
  const pending = shoot.metadata.annotations?.[ANNOTATION_OPERATION] === "maintain" && !run;
  const { operate } = usePermissions(namespace);
  const why = describedBy(reasonId("shoot-actions-not-allowed", operate), !!blocked && "shoot-actions-blocked");

  return (
    <div className="flex flex-col items-start gap-1.5 sm:items-end">
      <div className="flex flex-wrap items-center gap-2">
        {run && dialog !== "maintain" && (
          <button
            type="button"
            onClick={openMaintain}
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {underWay ? (
              <Loader2 aria-hidden className="size-3.5 animate-spin text-sky-600" />
            ) : progress?.step === "done" ? (
              <CheckCircle2 aria-hidden className="size-3.5 text-emerald-600" />
            ) : (
              <XCircle aria-hidden className="size-3.5 text-red-600" />
            )}
            {progress?.step === "queued"
              ? "Maintenance queued"
              : progress?.step === "rolling-out"
                ? `Rolling out ${progress.progress ?? 0}%`
                : progress?.step === "done"
                  ? "Maintenance finished"
                  : "Maintenance failed"}
          </button>
        )}
        <Button
          onClick={() => {
            if (run && !underWay) setRun(null);
            openMaintain();
          }}
          disabled={(!!blocked && !run) || !operate.allowed}
          aria-describedby={why}
        >
          <Wrench aria-hidden className="size-4" />
          Maintain now
        </Button>
        <Button onClick={() => setDialog("images")} disabled={!!blocked || !operate.allowed} aria-describedby={why}>
          <HardDrive aria-hidden className="size-4" />
          Update images
        </Button>
        <Button
          variant="primary"
          onClick={() => setDialog("version")}
          disabled={!!blocked || !operate.allowed}
          aria-describedby={why}
        >
          <ArrowUpCircle aria-hidden className="size-4" />
          Update version
        </Button>
      </div>
      <NotAllowed id="shoot-actions-not-allowed" allowance={operate} />
      {blocked && (
        <p id="shoot-actions-blocked" className="text-xs text-slate-500">
          Not available while {describeBlockingOperation(blocked)}.
        </p>
      )}
      {pending && !blocked && (
        <p className="text-xs text-slate-500">A maintenance run is already queued for this cluster.</p>
      )}
      <MaintainNowDialog
        shoot={shoot}
        open={dialog === "maintain"}
        openedAt={maintainOpenedAt}
        onClose={() => setDialog(null)}
        run={run}
        progress={progress}
        onStarted={(started) => setRun(started)}
      />
      <OperationActions shoot={shoot} />
      {dialog === "version" && <VersionUpdateDialog shoot={shoot} onClose={() => setDialog(null)} />}
      {dialog === "images" && <ImageUpdateDialog shoot={shoot} onClose={() => setDialog(null)} />}
    </div>
  );
}
