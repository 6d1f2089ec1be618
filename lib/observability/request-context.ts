// What every log line written while serving a request says about it: its id and who asks. route()
// opens the context (lib/http/route.ts); the logger reads it (logger.ts), so code deep in a use
// case logs with the request's facts without being handed them.
import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "./shared.ts";

export interface RequestFacts {
  readonly requestId: string;
  /** Who asks, as the audit log names them; "anonymous" until route() knows. */
  actor: string;
}

const storage = () => processWide("request-context", () => new AsyncLocalStorage<RequestFacts>());

/** Runs `work` as part of the request `requestId` (its actor yet unknown). */
export function withRequest<T>(requestId: string, work: () => T): T {
  return storage().run({ requestId, actor: "anonymous" }, work);
}

/** The request being served here, if any. */
export const currentRequest = (): RequestFacts | undefined => storage().getStore();

/** Once route() knows who asks: every later line of this request names them. */
export function setActor(actor: string): void {
  const facts = currentRequest();
  if (facts) facts.actor = actor;
}
