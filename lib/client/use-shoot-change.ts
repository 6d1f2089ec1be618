"use client";

// Every change of one shoot from the browser, on TanStack Query's useMutation: an edit (a merge
// patch guarded by the resourceVersion the user's choice was made on, with the 409 re-check of
// shoot-change.ts) or an action (the requests of an operation, a deletion, a maintenance run).
// The components keep only their form; the hook holds what sending is about:
// - `pending` while the requests run, and `step`, the request under way (or the one that failed);
// - `result`: saved, applied by someone else first, superseded (`conflict`: the current shoot and
//   the server's 409, for the form to show what changed and let the person choose again), or done;
// - `error`, and `refusal` with its field problems placed at the form's fields (`fields`);
// - on success, the shoot and its parts (plan, history, deletion, ...) are read again. An edit
//   settles only once they are, so what the form says next (the next maintenance) is read from
//   fresh data; an action settles as soon as its requests are answered (what it started is
//   followed live, and the person should not wait for a refresh to see it). The caller's
//   `onSuccess` runs then, before `pending` ends.
// A PATCH of the shoot answers with the saved shoot: it goes into the cache at once, so the page
// shows it without waiting for the live feed.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { apiSend, RequestError, shootPath } from "../ui/api.ts";
import type { Shoot } from "../ui/api-types.ts";
import { shootQuery } from "./queries.ts";
import { queryKeys } from "./query-keys.ts";
import { placeFieldProblems } from "./field-problems.ts";
import { sendEdit, type EditOutcome, type ShootEdit } from "./shoot-change.ts";

/**
 * One request of an action: `part` is the path under the shoot ("" for the shoot itself,
 * "maintain" for POST .../maintain); `step` names it for the person while it runs and if it fails.
 */
export type ShootRequest = <T>(
  method: "POST" | "PATCH" | "DELETE",
  part: string,
  options?: { readonly body?: unknown; readonly step?: string },
) => Promise<T>;

export type ShootChangeResult<A> = EditOutcome | { readonly outcome: "done"; readonly answer: A };

export interface ChangeCallbacks<A> {
  /**
   * Called with the result (an edit's once the shoot and its parts are read again), before `pending` ends;
   * also when the component that started the change is gone by then (a dialog of an operation
   * the shoot no longer offers once it is asked for), which useMutation's per-call callbacks skip.
   */
  readonly onSuccess?: (result: ShootChangeResult<A>) => void;
}

interface Started<A> {
  readonly run: (request: ShootRequest) => Promise<ShootChangeResult<A>>;
  readonly callbacks: ChangeCallbacks<A>;
  /** Whether the change settles only once the shoot and its parts are read again. */
  readonly awaitRefresh: boolean;
}

/** `A` is what an action answers (`act`); edits answer with the shoot. */
export function useShootChange<A = never>(namespace: string, name: string) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<string>();
  const path = shootPath(namespace, name);

  const request: ShootRequest = async <T>(
    method: "POST" | "PATCH" | "DELETE",
    part: string,
    options: { readonly body?: unknown; readonly step?: string } = {},
  ) => {
    if (options.step !== undefined) setStep(options.step);
    const answer = await apiSend<T>(method, part ? `${path}/${part}` : path, options.body);
    if (method === "PATCH" && !part) queryClient.setQueryData(queryKeys.shoot(namespace, name), answer as Shoot);
    return answer;
  };

  const mutation = useMutation({
    mutationFn: ({ run }: Started<A>) => run(request),
    onSuccess: async (result, { callbacks, awaitRefresh }) => {
      const refreshed = queryClient.invalidateQueries({ queryKey: queryKeys.shoot(namespace, name) });
      if (awaitRefresh) await refreshed;
      callbacks.onSuccess?.(result);
    },
    // A refusal may come from a shoot the page shows stale (a 409): read it again, without
    // holding the refusal back for it.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.shoot(namespace, name) }),
  });
  const { mutate, reset: resetMutation } = mutation;

  const start = useCallback(
    (run: Started<A>["run"], callbacks: ChangeCallbacks<A> = {}, awaitRefresh: boolean) => {
      setStep(undefined);
      mutate({ run, callbacks, awaitRefresh });
    },
    [mutate],
  );

  /** Sends a guarded edit; a 409 is re-checked (shoot-change.ts). */
  const edit = <P>(change: ShootEdit<P>, callbacks?: ChangeCallbacks<A>) =>
    start(
      (send) =>
        sendEdit(change, {
          patch: (body) => send<Shoot>("PATCH", "", { body }),
          // fetchQuery puts the current shoot into the cache too.
          read: () => queryClient.fetchQuery({ ...shootQuery(namespace, name), staleTime: 0 }),
        }),
      callbacks,
      true,
    );

  /** Runs an action's requests, in the order the action sends them. */
  const act = (action: (send: ShootRequest) => Promise<A>, callbacks?: ChangeCallbacks<A>) =>
    start(async (send) => ({ outcome: "done", answer: await action(send) }), callbacks, false);

  const reset = useCallback(() => {
    setStep(undefined);
    resetMutation();
  }, [resetMutation]);

  const result = mutation.data;
  const refusal = mutation.error instanceof RequestError ? mutation.error : undefined;
  return {
    edit,
    act,
    reset,
    pending: mutation.isPending,
    /** The request under way, or the one that failed. */
    step,
    result,
    /** Someone changed the part differently: the current shoot, and the server's 409. */
    conflict: result?.outcome === "superseded" ? result : undefined,
    error: mutation.error,
    refusal,
    /** The refusal's field problems at the form's fields (each named by the path it stands for). */
    fields: <K extends string>(fields: Readonly<Record<K, string>>) =>
      placeFieldProblems(refusal?.errors ?? [], fields),
  };
}
