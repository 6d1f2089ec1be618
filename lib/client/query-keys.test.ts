import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { shootPartQuery, viewerNodesQuery } from "./queries.ts";
import { queryKeys, refreshedByLiveEvents } from "./query-keys.ts";
import { getShootNodes } from "../api/operations/shoots.ts";

// components/live/live-updates.tsx invalidates queryKeys.shoot(ns, name) for a shoot's change (a
// prefix match) and, on "*" or after a reconnect, every query refreshedByLiveEvents lets through.
describe("the nodes read with a viewer kubeconfig", () => {
  const viewer = viewerNodesQuery("garden-dev", "cluster-1");
  const nodes = shootPartQuery(getShootNodes, "garden-dev", "cluster-1");

  it("is keyed outside the shoot's key, so no live event or reconnect repeats it", async () => {
    const client = new QueryClient();
    client.setQueryData(viewer.queryKey, { source: "shoot", items: [], pools: [], observedAt: "" });
    client.setQueryData(nodes.queryKey, { source: "garden", items: [], pools: [], observedAt: "" });
    await client.invalidateQueries({ queryKey: queryKeys.shoot("garden-dev", "cluster-1") });
    expect(client.getQueryState(nodes.queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(viewer.queryKey)?.isInvalidated).toBe(false);

    await client.invalidateQueries({ predicate: refreshedByLiveEvents });
    expect(client.getQueryState(viewer.queryKey)?.isInvalidated).toBe(false);
    expect(client.getQueryCache().findAll({ predicate: refreshedByLiveEvents })).toHaveLength(1);
  });

  it("keeps the read's query in its key and runs only when asked: never polled, retried or refetched", () => {
    expect(viewer.queryKey).toEqual(queryKeys.onDemand("garden-dev", "cluster-1", "nodes?through=viewer-kubeconfig"));
    expect(viewer).toMatchObject({
      enabled: false,
      retry: false,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      refetchOnMount: false,
    });
    expect(viewer).not.toHaveProperty("refetchInterval");
  });
});
