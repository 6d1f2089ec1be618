"use client";

// The "Endpoints and ports" panel: where this cluster's API server is reached (the addresses the
// garden advertises), through which seed's ingress gateway, and the three ways through it (SNI on
// 443, the apiserver-proxy on 8443, the reversed VPN on 8132) in short words, each with its
// steps behind a disclosure. The words are lib/ui/shoot-endpoints.ts's.
import { useQuery } from "@tanstack/react-query";
import { Info, Moon, Network } from "lucide-react";
import { Panel } from "@/components/ui/page-header";
import { seedsQuery } from "@/lib/client/queries";
import type { Shoot } from "@/lib/ui/api-types";
import { shootEndpoints } from "@/lib/ui/shoot-endpoints";

export function EndpointsPanel({ shoot }: { shoot: Shoot }) {
  const seeds = useQuery(seedsQuery);
  const seedName = shoot.status?.seedName ?? shoot.spec.seedName;
  const seed = seeds.data?.items.find((s) => s.metadata.name === seedName);
  const view = shootEndpoints(shoot, seed);

  return (
    <Panel id="endpoints" title="Endpoints and ports">
      <div className="space-y-4 text-sm">
        <p className="text-xs text-slate-600">
          The API server runs in the seed, not in the cluster. Everything reaches it through the seed&apos;s Istio
          ingress gateway; the cluster itself opens no port.
        </p>

        {view.note && (
          <p
            role="status"
            data-testid="endpoints-note"
            className="flex items-start gap-2 rounded-md bg-slate-50 p-2.5 text-xs text-slate-700 ring-1 ring-inset ring-slate-200"
          >
            {view.note.kind === "hibernated" ? (
              <Moon aria-hidden className="mt-px size-3.5 shrink-0 text-slate-500" />
            ) : (
              <Info aria-hidden className="mt-px size-3.5 shrink-0 text-slate-500" />
            )}
            <span>{view.note.text}</span>
          </p>
        )}

        {view.addresses.length > 0 && (
          <section aria-labelledby="endpoints-addresses-title" className="space-y-2">
            <h3 id="endpoints-addresses-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
              Advertised addresses
            </h3>
            <dl className="space-y-2" data-testid="advertised-addresses">
              {view.addresses.map((a) => (
                <div key={`${a.name} ${a.url}`} className="min-w-0">
                  <dt className="text-xs font-medium text-slate-700">{a.name}</dt>
                  <dd className="min-w-0">
                    <code className="block break-all font-mono text-xs text-slate-900">{a.url}</code>
                    <span className="text-xs text-slate-500">{a.meaning}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        )}

        <section aria-labelledby="endpoints-seed-title" className="space-y-1">
          <h3 id="endpoints-seed-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            Control plane
          </h3>
          {view.seed ? (
            <p className="text-xs text-slate-700">
              On seed <span className="font-medium">{view.seed.name}</span>
              {view.seed.ingressDomain ? (
                <>
                  , ingress domain <code className="break-all font-mono">{view.seed.ingressDomain}</code>
                </>
              ) : seeds.isPending ? (
                <span className="text-slate-500"> (loading the seed…)</span>
              ) : null}
              {view.controlPlaneNamespace && (
                <>
                  , namespace <code className="break-all font-mono">{view.controlPlaneNamespace}</code>
                </>
              )}
              .
            </p>
          ) : (
            <p className="text-xs text-slate-500">Not on a seed yet: no gateway carries its traffic.</p>
          )}
        </section>

        <section aria-labelledby="endpoints-ports-title" className="space-y-2">
          <h3 id="endpoints-ports-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            Ports of the ingress gateway
          </h3>
          <ul className="space-y-2" data-testid="endpoint-routes">
            {view.routes.map((route) => (
              <li key={route.port} className="rounded-md ring-1 ring-inset ring-slate-200">
                <details className="group">
                  <summary className="flex cursor-pointer list-none items-start gap-2 rounded-md p-2.5 focus-visible:outline-2 focus-visible:outline-accent-600 [&::-webkit-details-marker]:hidden">
                    <Network aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
                    <span className="min-w-0 flex-1">
                      <span className="flex flex-wrap items-baseline gap-x-2">
                        <span className="rounded bg-slate-100 px-1.5 font-mono text-xs font-semibold text-slate-800">
                          {route.port}
                        </span>
                        <span className="font-medium text-slate-900">{route.title}</span>
                      </span>
                      <span className="mt-0.5 block text-xs text-slate-600">{route.summary}</span>
                      <span className="mt-0.5 block text-xs font-medium text-accent-700 group-open:hidden">
                        Show the way
                      </span>
                      <span className="mt-0.5 hidden text-xs font-medium text-accent-700 group-open:block">
                        Hide the way
                      </span>
                    </span>
                  </summary>
                  <ol className="list-decimal space-y-1 px-2.5 pb-2.5 pl-9 text-xs text-slate-700">
                    {route.steps.map((step) => (
                      <li key={step} className="break-words">
                        {step}
                      </li>
                    ))}
                  </ol>
                </details>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </Panel>
  );
}
