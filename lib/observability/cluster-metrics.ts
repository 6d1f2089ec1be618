// One scrape sees every process of `npm start`: the web process that is asked for /metrics asks
// the primary, which asks every web process for its metrics (over node:cluster's IPC), adds its
// own (the job worker's runs, the queue and migration gauges, its pool) and sums them with
// prom-client's AggregatorRegistry.aggregate (counters and histograms add up; so do the gauges,
// which each process sets only for what it alone holds). Not prom-client's clusterMetrics(): it
// answers the web processes only, without the primary's own.
import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, Registry } from "prom-client";
import { localMetrics, type ProcessMetrics } from "./metrics.ts";
import { processWide } from "./shared.ts";

const ASK = "almanac:metrics-ask"; // primary -> web process: your metrics, please
const ANSWER = "almanac:metrics-answer"; // web process -> primary
const GATHER = "almanac:metrics-gather"; // web process -> primary: everyone's, please
const GATHERED = "almanac:metrics-gathered"; // primary -> web process

/** How long the primary waits for a web process; one that does not answer in time is left out. */
const ANSWER_MS = 5_000;

interface Message {
  readonly type?: unknown;
  readonly id?: string;
  readonly metrics?: ProcessMetrics;
  readonly text?: string;
  readonly error?: string;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** In a web process (once, at start): answers the primary's asks with this process's metrics. */
export function answerMetricsAsks(): void {
  processWide("metrics-answerer", () => {
    process.on("message", (message: Message) => {
      if (message?.type !== ASK) return;
      void localMetrics().then(
        (values) => process.send?.({ type: ANSWER, id: message.id, metrics: values }),
        (error: Error) => process.send?.({ type: ANSWER, id: message.id, error: error.message }),
      );
    });
    return true;
  });
}

/** Sums the processes' metrics into one exposition. */
export async function aggregateText(all: readonly ProcessMetrics[]): Promise<string> {
  return AggregatorRegistry.aggregate(all as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
}

/** The primary's answer to one gather: every live web process's metrics and its own, summed. */
async function gather(): Promise<string> {
  const id = randomUUID();
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
  const answers = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<ProcessMetrics | undefined>((resolve) => {
          const timer = setTimeout(() => finish(undefined), ANSWER_MS);
          const onMessage = (message: Message) => {
            if (message?.type === ANSWER && message.id === id) finish(message.metrics);
          };
          function finish(values: ProcessMetrics | undefined) {
            clearTimeout(timer);
            worker.off("message", onMessage);
            worker.off("exit", onExit);
            resolve(values);
          }
          const onExit = () => finish(undefined);
          worker.on("message", onMessage);
          worker.once("exit", onExit);
          worker.send({ type: ASK, id });
        }),
    ),
  );
  const own = await localMetrics();
  return aggregateText([own, ...answers.filter((a): a is ProcessMetrics => a !== undefined)]);
}

/** In npm start's primary (once): gathers the cluster's metrics for a web process that asks. */
export function serveClusterMetrics(): void {
  processWide("metrics-gatherer", () => {
    cluster.on("message", (worker: Worker, message: Message) => {
      if (message?.type !== GATHER) return;
      gather().then(
        (text) => worker.isConnected() && worker.send({ type: GATHERED, id: message.id, text }),
        (error: Error) => worker.isConnected() && worker.send({ type: GATHERED, id: message.id, error: error.message }),
      );
    });
    return true;
  });
}

/**
 * What /metrics answers: the whole cluster's metrics in a web process of npm start, else (a
 * server started alone, `next start`) this process's own.
 */
export async function scrapeText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return aggregateText([await localMetrics()]);
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error("the primary did not gather the metrics in time")), ANSWER_MS * 2);
    const onMessage = (message: Message) => {
      if (message?.type !== GATHERED || message.id !== id) return;
      if (message.error !== undefined) finish(new Error(message.error));
      else finish(undefined, message.text ?? "");
    };
    function finish(error: Error | undefined, text = "") {
      clearTimeout(timer);
      process.off("message", onMessage);
      if (error) reject(error);
      else resolve(text);
    }
    process.on("message", onMessage);
    process.send!({ type: GATHER, id });
  });
}
