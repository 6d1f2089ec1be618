// Concurrent window edits and reads against a running Almanac, for the fault tests: each writer
// edits its own shoot with values it never sent before, and every answer is kept, so a test can
// check what was answered (no 500, no hang) and that every edit answered 200 is still there.
import { ADMIN_HEADERS } from "./api-client.ts";

export interface Answer {
  readonly method: "GET" | "PATCH";
  readonly path: string;
  /** The status, or 0 when no answer came (the connection broke, or the time ran out). */
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly ms: number;
  /** Why no answer came, or the problem's detail of an error answer. */
  readonly note?: string;
  readonly startedAt: number;
}

export interface Edit {
  readonly shoot: string;
  readonly requestId: string;
  readonly window: { readonly begin: string; readonly end: string };
  /** 200, another status, or 0 for an answer that was lost. */
  readonly status: number;
  readonly sentAt: number;
}

export interface LoadResult {
  readonly answers: readonly Answer[];
  /** Every edit in the order each writer sent them. */
  readonly edits: readonly Edit[];
}

export interface EditLoad {
  /** Resolves once an edit sent after `since` is answered 200; fails after `timeoutMs`. */
  acknowledgedAfter(since: number, timeoutMs: number, what: string): Promise<void>;
  stop(): Promise<LoadResult>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The n-th window a writer sends: a one-hour window starting n seconds after midnight UTC. */
export function nthWindow(n: number): { begin: string; end: string } {
  const second = n % 86_400;
  const at = (s: number) => `${pad(Math.floor(s / 3600) % 24)}${pad(Math.floor(s / 60) % 60)}${pad(s % 60)}+0000`;
  return { begin: at(second), end: at(second + 3600) };
}

/**
 * Starts `writers` (one per shoot name, in namespace `namespace`) and `readers` until stopped.
 * A request without an answer after `requestTimeoutMs` counts as lost (status 0, "timeout").
 */
export function startEditLoad(options: {
  readonly baseUrl: string;
  readonly namespace: string;
  readonly shoots: readonly string[];
  readonly readers: number;
  readonly requestTimeoutMs: number;
  /** Where each writer's values start, so two loads on one database never send the same value. */
  readonly firstValue?: number;
}): EditLoad {
  const answers: Answer[] = [];
  const edits: Edit[] = [];
  let running = true;

  async function send(method: "GET" | "PATCH", path: string, init: RequestInit = {}): Promise<Answer> {
    const startedAt = Date.now();
    let answer: Answer;
    try {
      const response = await fetch(`${options.baseUrl}${path}`, {
        ...init,
        method,
        headers: { ...ADMIN_HEADERS, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      const text = await response.text();
      let note: string | undefined;
      if (response.status >= 400) {
        try {
          note = (JSON.parse(text) as { detail?: string }).detail;
        } catch {
          note = text.slice(0, 200);
        }
      }
      answer = {
        method,
        path,
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        retryAfter: response.headers.get("retry-after"),
        ms: Date.now() - startedAt,
        note,
        startedAt,
      };
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      answer = {
        method,
        path,
        status: 0,
        contentType: "",
        retryAfter: null,
        ms: Date.now() - startedAt,
        note: e.name === "TimeoutError" ? "timeout" : (e.cause?.code ?? e.message),
        startedAt,
      };
    }
    answers.push(answer);
    return answer;
  }

  const shootPath = (name: string) => `/api/v1/namespaces/${options.namespace}/shoots/${name}`;

  async function writer(shoot: string, index: number) {
    for (let n = options.firstValue ?? 0; running; n++) {
      const window = nthWindow(n);
      const requestId = `edit-${shoot}-${n}`;
      const answer = await send("PATCH", shootPath(shoot), {
        headers: { "content-type": "application/merge-patch+json", "x-request-id": requestId },
        body: JSON.stringify({ spec: { maintenance: { timeWindow: window } } }),
      });
      edits.push({ shoot, requestId, window, status: answer.status, sentAt: answer.startedAt });
      // A refused or failed edit: a short pause, as a client would, rather than a tight loop.
      if (answer.status !== 200) await new Promise((r) => setTimeout(r, 50 + index * 10));
    }
  }

  async function reader(index: number) {
    for (let n = 0; running; n++) {
      const answer =
        n % 2 === 0
          ? await send("GET", "/api/v1/shoots?limit=20")
          : await send("GET", shootPath(options.shoots[(n + index) % options.shoots.length]));
      if (answer.status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
  }

  const all = [
    ...options.shoots.map((shoot, i) => writer(shoot, i)),
    ...Array.from({ length: options.readers }, (_, i) => reader(i)),
  ];
  return {
    async acknowledgedAfter(since, timeoutMs, what) {
      const until = Date.now() + timeoutMs;
      while (!edits.some((e) => e.status === 200 && e.sentAt >= since)) {
        if (Date.now() > until)
          throw new Error(
            `No edit was acknowledged within ${timeoutMs} ms after ${what}: ${JSON.stringify(tally(answers))}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      running = false;
      await Promise.all(all);
      return { answers, edits };
    },
  };
}

/** Answers that break the rules: a 5xx other than 503, a 503 that is not a problem with Retry-After. */
export function badAnswers(answers: readonly Answer[]): Answer[] {
  return answers.filter(
    (a) =>
      (a.status >= 500 && a.status !== 503) ||
      (a.status === 503 && (!a.contentType.includes("application/problem+json") || !/^\d+$/.test(a.retryAfter ?? ""))),
  );
}

/**
 * For each shoot, the windows it may hold now: its last edit answered 200, or any edit sent after
 * that one whose answer was not a 200 (an answer lost or a 503 may hide a committed change). A
 * shoot never acknowledged may also hold its starting window, given as `initial`.
 */
export function allowedFinalWindows(
  edits: readonly Edit[],
  initial: ReadonlyMap<string, { begin: string; end: string }>,
): Map<string, { begin: string; end: string }[]> {
  const allowed = new Map<string, { begin: string; end: string }[]>();
  const byShoot = Map.groupBy(edits, (e) => e.shoot);
  for (const [shoot, sent] of byShoot) {
    const lastAcked = sent.findLastIndex((e) => e.status === 200);
    const start = lastAcked >= 0 ? [sent[lastAcked].window] : initial.has(shoot) ? [initial.get(shoot)!] : [];
    allowed.set(shoot, [...start, ...sent.slice(lastAcked + 1).map((e) => e.window)]);
  }
  return allowed;
}

/** How the answers came out, for a failure message and the log: counts by status. */
export function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 0 ? `no answer (${a.note})` : `${a.method} ${a.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
