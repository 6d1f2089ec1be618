// The one logger of every server process (the web processes, npm start's primary with the job
// worker, `npm run worker`): pino, writing JSON lines, or pretty ones for a person
// (log-options.ts). A line written while a request is served carries its requestId and actor
// (request-context.ts), and text is passed through redactSecrets, so a database URL's password or
// a token in a URL never reaches the log. Output the user is meant to read (npm start's URL and
// setup link, the CLI's answers) is not logged: it is printed.
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { config } from "../config/load-config.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { type BatchedDestination, batchedDestination } from "./batched-destination.ts";
import { logOptions } from "./log-options.ts";
import { currentRequest } from "./request-context.ts";
import { processWide } from "./shared.ts";

const redacted = (value: unknown): unknown => {
  if (typeof value === "string") return redactSecrets(value);
  if (value instanceof Error) return value; // pino's error serializer; its text is redacted below
  if (value && typeof value === "object" && !Array.isArray(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, typeof v === "string" ? redactSecrets(v) : v]),
    );
  return value;
};

/** A logger writing to `destination` at `level` (exported for tests; the process has one, below). */
export function loggerTo(destination: pino.DestinationStream, level: string): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const facts = currentRequest();
        return facts ? { requestId: facts.requestId, actor: facts.actor } : {};
      },
      serializers: {
        err: (error: unknown) => {
          const plain = pino.stdSerializers.err(error as Error);
          return { ...plain, message: redactSecrets(plain.message), stack: redactSecrets(plain.stack ?? "") };
        },
      },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map(redacted) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

/** The settings, or (a malformed one, where npm start did not refuse it first) the defaults. */
function settings(): { level: string; pretty: boolean; fault?: string } {
  try {
    return logOptions(config(), process.stdout.isTTY === true);
  } catch (error) {
    return { level: "info", pretty: false, fault: (error as Error).message };
  }
}

/** Standard output, in batches, all of them written by the time the process exits. */
function jsonLines(): BatchedDestination {
  const stdout = pino.destination({ dest: 1, sync: true });
  const batched = batchedDestination((text) => stdout.write(text));
  // Lines logged by exit handlers after this one are written at once: no later turn comes.
  process.on("exit", () => batched.end());
  return batched;
}

function createLogger(): Logger {
  const { level, pretty: isPretty, fault } = settings();
  // Written in this thread (no transport worker), so Next's bundle needs no worker file. JSON
  // lines are written in batches at the end of the event loop's turn, not one write each while a request
  // waits, and whatever is pending when the process exits is written then (batched-destination.ts).
  // A person's pretty lines are written at once.
  const destination = isPretty
    ? pretty({ sync: true, singleLine: true, colorize: process.stdout.isTTY === true, ignore: "pid,hostname" })
    : jsonLines();
  const created = loggerTo(destination, level);
  if (fault) created.warn(`${fault} Logging JSON lines at info instead.`);
  return created;
}

/** The process's logger. */
export const logger = (): Logger => processWide("logger", createLogger);
