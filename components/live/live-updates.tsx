"use client";

// Follows GET /api/v1/events and refetches what changed: the server names each changed shoot,
// and the pages' queries are keyed so that exactly those (and the fleet-wide views) refresh.
// Events are batched for half a second, so a maintenance of 1,000 shoots is one refetch, not
// 1,000. The stream is asked for what changed since the page was opened (`since`), so a change
// made after the page read its data but before it followed the stream is not missed. After the
// connection drops, everything is refetched once it is back, since changes in between were missed.
// "Everything" leaves out the on-demand reads (queryKeys.onDemand: the nodes read with a viewer
// kubeconfig), which only the person's button repeats: each would ask the garden for a credential.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { queryKeys, refreshedByLiveEvents } from "@/lib/client/query-keys";

export type LiveState = "connecting" | "live" | "reconnecting";

const LiveContext = createContext<{ state: LiveState; since: number }>({ state: "connecting", since: 0 });

export const useLiveState = () => useContext(LiveContext);

interface Change {
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
}

const FLEET_WIDE = [queryKeys.fleet, queryKeys.auditEvents, queryKeys.migrationLists];
// Views computed over the whole fleet (the forecast, the profile pages' impact) take long on a
// large fleet, and a busy fleet changes every second: refresh them at most every 15 s, so that
// each refresh can finish before the next one starts.
const SLOW = [queryKeys.forecasts, queryKeys.cloudProfiles];
const SLOW_INTERVAL_MS = 15_000;
// A fleet-wide refetch under way is not restarted by the next event: on a busy fleet events come
// faster than a large list refetches, and restarting would never let one finish.
const KEEP_RUNNING = { cancelRefetch: false } as const;
// The page's first data may have been read on the server before its HTML came (and the server's
// clock may run a little apart from this one): ask for the changes from a few seconds earlier.
const SINCE_MARGIN_MS = 5_000;

export function LiveUpdates({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<{ state: LiveState; since: number }>({ state: "connecting", since: 0 });

  useEffect(() => {
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let flush: ReturnType<typeof setTimeout> | undefined;
    let slow: ReturnType<typeof setTimeout> | undefined;
    let settle: ReturnType<typeof setTimeout> | undefined;
    let slowAt = 0;
    const refreshSlow = () => {
      slow = undefined;
      slowAt = Date.now();
      for (const key of SLOW) void queryClient.invalidateQueries({ queryKey: key }, KEEP_RUNNING);
    };
    let dropped = false;
    let everything = false;
    const shoots = new Map<string, [string, string]>();

    const apply = () => {
      flush = undefined;
      if (everything) {
        void queryClient.invalidateQueries({ predicate: refreshedByLiveEvents });
      } else {
        for (const [namespace, name] of shoots.values())
          void queryClient.invalidateQueries({ queryKey: queryKeys.shoot(namespace, name) });
        for (const key of FLEET_WIDE) void queryClient.invalidateQueries({ queryKey: key }, KEEP_RUNNING);
        // Once the events stop for two seconds, one more refetch, so that a change that came
        // while a refetch was under way is not missed.
        clearTimeout(settle);
        settle = setTimeout(() => {
          for (const key of FLEET_WIDE) void queryClient.invalidateQueries({ queryKey: key }, KEEP_RUNNING);
        }, 2_000);
        slow ??= setTimeout(refreshSlow, Math.max(0, slowAt + SLOW_INTERVAL_MS - Date.now()));
      }
      everything = false;
      shoots.clear();
    };

    const open = () => {
      source = new EventSource(`/api/v1/events?since=${Math.floor(performance.timeOrigin) - SINCE_MARGIN_MS}`);
      source.addEventListener("ready", () => {
        setLive({ state: "live", since: Date.now() });
        if (dropped) {
          dropped = false;
          void queryClient.invalidateQueries({ predicate: refreshedByLiveEvents });
        }
      });
      source.addEventListener("change", (event) => {
        try {
          const { changes } = JSON.parse((event as MessageEvent<string>).data) as { changes: Change[] };
          for (const c of changes) {
            if (c.kind === "*") everything = true;
            else if (c.kind === "Shoot" && c.namespace && c.name)
              shoots.set(`${c.namespace}/${c.name}`, [c.namespace, c.name]);
          }
        } catch {
          everything = true;
        }
        flush ??= setTimeout(apply, 500);
      });
      source.onerror = () => {
        dropped = true;
        setLive((l) => (l.state === "reconnecting" ? l : { state: "reconnecting", since: Date.now() }));
        // The browser retries by itself unless it gave up (CLOSED); then open a new one.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          reopen = setTimeout(open, 3_000);
        }
      };
    };
    open();
    return () => {
      source?.close();
      clearTimeout(reopen);
      clearTimeout(flush);
      clearTimeout(slow);
      clearTimeout(settle);
    };
  }, [queryClient]);

  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}
