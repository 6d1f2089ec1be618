"use client";

// The shoot's worker nodes, pool by pool (GET .../nodes): how each pool updates (rolling
// replacement or in place, its surge and unavailability), how far its roll is and what holds it,
// and per node its versions (those not yet on the pool's target stand out), readiness, state, the
// critical-components-not-ready taint while present and what the node waits for. The key starts
// with ["shoot", ns, name], so live events refresh it; while a pool rolls the panel also polls, so
// the roll is followed node by node. A live garden reports no nodes: the panel says what it cannot
// see and offers to read them from the cluster with a viewer kubeconfig requested as the person.
// That read (viewerNodesQuery) is keyed outside the shoot's key and runs only when the button is
// pressed: each read is a new credential from the garden, so no live event, poll or focus repeats it.
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowUpCircle, Hand, KeyRound, RefreshCw, Server } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress";
import { ScrollBox } from "@/components/ui/scroll-box";
import { EmptyState, ErrorState, LoadingBlock, RefreshFailed } from "@/components/ui/states";
import { toneIcon } from "@/components/ui/status-badges";
import { DualTime, RelativeTime } from "@/components/ui/time";
import { getShootNodes } from "@/lib/api/operations/shoots";
import { shootPartQuery, viewerNodesQuery } from "@/lib/client/queries";
import { RequestError } from "@/lib/ui/api";
import type { PoolRoll, Shoot, ShootNode, ShootNodesAnswer } from "@/lib/ui/api-types";
import {
  awaitingSelectionText,
  NODE_STATE_META,
  ROLL_STATE_META,
  heldText,
  nodeOnTarget,
  nodesSummary,
  poolViews,
  rollProgress,
  rollUnderWay,
  strategyText,
  surgeText,
  taintHint,
  waitText,
  type PoolView,
} from "@/lib/ui/node-roll-text";

// While a pool rolls, in case a step of the roll comes without a live event.
const POLL_MS = 2_000;

export function ShootNodesPanel({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const [throughViewer, setThroughViewer] = useState(false);
  const garden = useQuery({
    ...shootPartQuery(getShootNodes, namespace, name),
    refetchInterval: (q) => (rollUnderWay(q.state.data) ? POLL_MS : false),
  });
  // Only the button starts it (refetch(): the query itself is disabled), each press a new read.
  const viewer = useQuery(viewerNodesQuery(namespace, name));
  const readThroughViewer = () => {
    setThroughViewer(true);
    void viewer.refetch();
  };
  const answer = (throughViewer && viewer.data) || garden.data;
  const shown = answer === viewer.data && viewer.data ? viewer : garden;

  return (
    <Panel
      id="nodes"
      title="Nodes"
      actions={
        answer && (
          <span className="text-xs text-slate-500">
            Observed <RelativeTime at={answer.observedAt} />
          </span>
        )
      }
    >
      {!answer ? (
        garden.error ? (
          <ErrorState
            title="The nodes could not be loaded"
            error={garden.error}
            onRetry={() => void garden.refetch()}
          />
        ) : (
          <LoadingBlock label="Loading the nodes" lines={5} />
        )
      ) : (
        <div className="space-y-5" data-testid="nodes-panel">
          {shown.error && <RefreshFailed what="the nodes" error={shown.error} onRetry={() => void shown.refetch()} />}
          {answer.source === "garden" && (
            <GardenOnly
              note={answer.note}
              reading={throughViewer && viewer.isFetching}
              refusal={throughViewer ? viewer.error : null}
              onRead={readThroughViewer}
            />
          )}
          {answer.source === "shoot" && (
            <ReadFromShoot observedAt={answer.observedAt} reading={viewer.isFetching} onRead={readThroughViewer} />
          )}
          <NodesBody answer={answer} shoot={shoot} />
        </div>
      )}
    </Panel>
  );
}

/** Nodes read inside the cluster: when, and the way to read them again (a new credential). */
function ReadFromShoot({ observedAt, reading, onRead }: { observedAt: string; reading: boolean; onRead: () => void }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3" data-testid="nodes-read-from-shoot">
      <p className="flex min-w-0 flex-1 items-start gap-1.5 text-xs text-slate-600">
        <KeyRound aria-hidden className="mt-0.5 size-3.5 shrink-0 text-slate-500" />
        <span>
          Read from inside the cluster with a short-lived viewer kubeconfig the garden issued to you, at{" "}
          <DualTime at={observedAt} relative={false} />; it was not stored. Not refreshed by itself: each read asks the
          garden for a new one.
        </span>
      </p>
      <Button variant="secondary" onClick={onRead} disabled={reading} aria-describedby="nodes-viewer-read-again">
        <RefreshCw aria-hidden className={`size-4 ${reading ? "animate-spin" : ""}`} />
        {reading ? "Reading again…" : "Read again"}
      </Button>
      <span id="nodes-viewer-read-again" className="sr-only">
        Asks the garden, as you, for a new viewer kubeconfig and reads the nodes with it.
      </span>
    </div>
  );
}

/** A live garden without a viewer credential: what Almanac cannot see, and the way to see it. */
function GardenOnly({
  note,
  reading,
  refusal,
  onRead,
}: {
  note?: string;
  reading: boolean;
  refusal: unknown;
  onRead: () => void;
}) {
  return (
    <div className="rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200" data-testid="nodes-garden-note">
      <p className="text-slate-700">{note ?? "The garden reports the worker pools, not their nodes."}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button onClick={onRead} disabled={reading} aria-describedby="nodes-viewer-explained">
          <KeyRound aria-hidden className="size-4" />
          {reading ? "Reading nodes from the cluster…" : "Read nodes from the cluster"}
        </Button>
      </div>
      <p id="nodes-viewer-explained" className="mt-2 text-xs text-slate-600">
        Asks the garden, as you, for a short-lived read-only viewer kubeconfig of this cluster (shoots/viewerkubeconfig)
        and reads the nodes with it. Almanac never stores it; the garden decides whether your role may have one.
      </p>
      {refusal != null && !reading && (
        <p role="alert" className="mt-2 flex items-start gap-1.5 text-sm text-red-800" data-testid="nodes-refusal">
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
          <span>
            {refusal instanceof RequestError
              ? `The garden refused (${refusal.status} ${refusal.title}): ${refusal.message}`
              : `Reading the nodes failed: ${refusal instanceof Error ? refusal.message : String(refusal)}`}
          </span>
        </p>
      )}
    </div>
  );
}

function NodesBody({ answer, shoot }: { answer: ShootNodesAnswer; shoot: Shoot }) {
  const views = poolViews(answer);
  if (views.length === 0) {
    if (answer.source === "garden") return null;
    return (
      <EmptyState title="This cluster has no worker nodes">
        {shoot.spec.hibernation?.enabled
          ? "It is hibernated: its worker nodes are gone until it wakes up."
          : "None of its worker pools has a node (a cluster without workers, or one whose nodes are not created yet)."}
      </EmptyState>
    );
  }
  return (
    <>
      <p className="text-sm text-slate-600" data-testid="nodes-summary">
        {nodesSummary(answer)}
      </p>
      {views.map((view) => (
        <PoolSection key={view.name} view={view} source={answer.source} />
      ))}
    </>
  );
}

function PoolSection({ view, source }: { view: PoolView; source: ShootNodesAnswer["source"] }) {
  const { roll, nodes } = view;
  const headingId = `pool-${view.name}-title`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg p-3 ring-1 ring-slate-200"
      data-testid="node-pool"
      data-pool={view.name}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
          <Server aria-hidden className="size-4 text-slate-500" />
          Pool {view.name}
          {roll && <StrategyBadge strategy={roll.updateStrategy} />}
        </h3>
        {roll ? (
          <RollBadge state={roll.state} />
        ) : (
          <Badge tone="grey" icon={toneIcon("grey")}>
            Not in the spec
          </Badge>
        )}
      </div>
      {roll && <RollFacts roll={roll} />}
      {roll?.state === "Held" && (
        <div
          role="alert"
          data-testid="roll-held"
          className="mt-3 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <span className="break-words">{heldText(roll)}</span>
        </div>
      )}
      {nodes.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">
          {source === "garden" ? "Its nodes are not listed (see above)." : "No node in this pool right now."}
        </p>
      ) : (
        <NodeTable pool={view.name} roll={roll} nodes={nodes} />
      )}
    </section>
  );
}

function StrategyBadge({ strategy }: { strategy: string }) {
  const meta = strategyText(strategy);
  return (
    <Badge tone={meta.inPlace ? "violet" : "grey"} title={meta.hint} className="font-normal">
      {meta.word}
    </Badge>
  );
}

function RollBadge({ state }: { state: PoolRoll["state"] }) {
  const meta = ROLL_STATE_META[state];
  return (
    <Badge tone={meta.tone} icon={toneIcon(meta.tone, state === "Rolling")} title={meta.hint}>
      <span data-testid="roll-state">{meta.word}</span>
    </Badge>
  );
}

function RollFacts({ roll }: { roll: PoolRoll }) {
  const progress = rollProgress(roll);
  const strategy = strategyText(roll.updateStrategy);
  return (
    <div className="mt-2 space-y-2 text-sm">
      <p className="text-xs text-slate-500">{strategy.hint}</p>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-slate-700 sm:grid-cols-3">
        <div className="flex gap-1.5">
          <dt className="text-slate-500">Nodes</dt>
          <dd>
            minimum {roll.minimum}, maximum {roll.maximum}
          </dd>
        </div>
        <div className="flex gap-1.5 sm:col-span-2">
          <dt className="text-slate-500">{strategy.inPlace ? "At a time" : "Surge"}</dt>
          <dd title={`maxSurge ${roll.maxSurge}, maxUnavailable ${roll.maxUnavailable}`}>{surgeText(roll)}</dd>
        </div>
        <div className="flex gap-1.5 sm:col-span-3">
          <dt className="text-slate-500">Target</dt>
          <dd className="break-words">
            Kubernetes <span className="font-mono text-[13px]">{roll.target.kubernetesVersion}</span>, image{" "}
            <span className="font-mono text-[13px]">
              {roll.target.image.name} {roll.target.image.version}
            </span>
          </dd>
        </div>
      </dl>
      {awaitingSelectionText(roll) && (
        <p className="flex items-start gap-1.5 text-xs text-slate-700" data-testid="awaiting-selection">
          <Hand aria-hidden className="mt-0.5 size-3.5 shrink-0 text-violet-600" />
          <span className="[overflow-wrap:anywhere]">{awaitingSelectionText(roll)}</span>
        </p>
      )}
      <div>
        <p className="mb-1 flex justify-between text-xs text-slate-600">
          <span data-testid="roll-progress">{progress.text}</span>
          <span>{progress.percent}%</span>
        </p>
        <ProgressBar
          value={progress.percent}
          label={`Roll of pool ${roll.pool}`}
          tone={roll.state === "Held" ? "amber" : roll.state === "Stable" ? "green" : "blue"}
        />
      </div>
    </div>
  );
}

// On a phone each node is a small card: its name across the top, then each value under its
// column's name (the headings stay for screen readers only).
const STACKED_ON_PHONE = [
  "max-sm:block max-sm:[&_thead]:sr-only max-sm:[&_tbody]:block",
  "max-sm:[&_tbody_tr]:grid max-sm:[&_tbody_tr]:grid-cols-2 max-sm:[&_tbody_tr]:gap-x-3 max-sm:[&_tbody_tr]:py-2",
  "max-sm:[&_tbody_th]:col-span-2 max-sm:[&_td]:py-1",
  "max-sm:[&_td.wide]:col-span-2",
  "max-sm:[&_td]:before:block max-sm:[&_td]:before:text-[11px] max-sm:[&_td]:before:text-slate-500",
  "max-sm:[&_td]:before:content-[attr(data-label)]",
].join(" ");

function NodeTable({ pool, roll, nodes }: { pool: string; roll?: PoolRoll; nodes: readonly ShootNode[] }) {
  return (
    <ScrollBox label={`Nodes of pool ${pool}`} className="mt-3">
      <table className={`w-full text-left text-sm ${STACKED_ON_PHONE}`}>
        <caption className="sr-only">Nodes of pool {pool}</caption>
        <thead className="text-xs text-slate-500">
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1.5 pr-3 pl-2.5 font-medium">
              Node
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Kubernetes
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Image
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Ready
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              State
            </th>
            <th scope="col" className="py-1.5 font-medium">
              Taints and waits
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {nodes.map((node) => (
            <NodeRow key={node.name} node={node} roll={roll} />
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function NodeRow({ node, roll }: { node: ShootNode; roll?: PoolRoll }) {
  const onTarget = nodeOnTarget(node, roll);
  const behind = !onTarget.kubernetes || !onTarget.image;
  const state = NODE_STATE_META[node.state];
  return (
    <tr
      className="align-top"
      data-testid="node-row"
      data-node={node.name}
      data-state={node.state}
      data-behind={behind ? "" : undefined}
    >
      {/* A node behind its pool's target has a bar at its start (and its values say so in words). */}
      <th
        scope="row"
        className={`border-l-2 py-2 pr-3 pl-2 font-normal ${behind ? "border-amber-500" : "border-transparent"}`}
      >
        <span className="block font-mono text-[13px] [overflow-wrap:anywhere] text-slate-900">{node.name}</span>
        {node.zone && <span className="block text-xs text-slate-500">zone {node.zone}</span>}
      </th>
      <td data-label="Kubernetes" className="py-2 pr-3">
        <Versioned
          value={node.kubernetesVersion}
          onTarget={onTarget.kubernetes}
          target={roll?.target.kubernetesVersion}
        />
      </td>
      <td data-label="Image" className="py-2 pr-3">
        <Versioned
          value={`${node.image.name} ${node.image.version}`}
          onTarget={onTarget.image}
          target={roll ? `${roll.target.image.name} ${roll.target.image.version}` : undefined}
        />
      </td>
      <td data-label="Ready" className="py-2 pr-3">
        <Badge tone={node.ready ? "green" : "red"} icon={toneIcon(node.ready ? "green" : "red")}>
          {node.ready ? "Ready" : "Not ready"}
        </Badge>
      </td>
      <td data-label="State" className="py-2 pr-3">
        <Badge
          tone={state.tone}
          icon={toneIcon(state.tone, node.state === "Joining" || node.state === "UpdatingInPlace")}
          title={state.hint}
        >
          {state.word}
        </Badge>
      </td>
      <td data-label="Taints and waits" className="wide py-2 text-slate-700">
        <TaintsAndWaits node={node} />
      </td>
    </tr>
  );
}

/** A version, marked (not by colour alone) when the node does not run the pool's target yet. */
function Versioned({ value, onTarget, target }: { value: string; onTarget: boolean; target?: string }) {
  if (onTarget) return <span className="font-mono text-[13px] text-slate-800">{value}</span>;
  return (
    <span
      className="inline-flex items-start gap-1 font-mono text-[13px] text-amber-900"
      title={target ? `Not yet on the pool's target, ${target}` : undefined}
    >
      <ArrowUpCircle aria-hidden className="mt-0.5 size-3.5 shrink-0 text-amber-600" />
      <span>
        {value}
        <span className="sr-only"> (not yet on the target{target ? `, ${target}` : ""})</span>
      </span>
    </span>
  );
}

function TaintsAndWaits({ node }: { node: ShootNode }) {
  if (node.taints.length === 0 && node.waitingFor.length === 0) return <span className="text-slate-500">None</span>;
  return (
    <div className="space-y-1">
      {node.taints.length > 0 && (
        <ul className="space-y-1">
          {node.taints.map((t) => (
            <li key={`${t.key}:${t.effect}`} data-testid="node-taint">
              <span className="font-mono text-xs [overflow-wrap:anywhere] text-slate-800">
                {t.key}
                {t.value ? `=${t.value}` : ""}:{t.effect}
              </span>
              {taintHint(t.key) && <span className="block text-xs text-slate-600">{taintHint(t.key)}</span>}
            </li>
          ))}
        </ul>
      )}
      {node.waitingFor.length > 0 && (
        <div>
          <p className="text-xs font-medium text-slate-600">Waits for</p>
          <ul className="space-y-0.5" data-testid="node-waits">
            {node.waitingFor.map((w) => (
              <li key={`${w.kind}/${w.namespace ?? ""}/${w.name}`} className="text-xs break-words text-amber-900">
                {waitText(w)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
