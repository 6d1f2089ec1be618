// What an error from the database layers means for the caller. Errors reach us in many shapes:
// node-postgres' DatabaseError (a SQLSTATE in `code`) and its plain Errors for a lost connection,
// Node's socket errors, Prisma's known request errors (a P code, with the driver adapter's error
// and its SQLSTATE under meta.driverAdapterError), Prisma's own transaction errors, and pg-boss
// passing any of these through when it sends inside a transaction. Each is looked at with its causes.

type ErrorLike = {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  meta?: Record<string, unknown>;
  cause?: unknown;
};

const MAX_DEPTH = 4;

/** Every code on the error and its causes (SQLSTATEs, Prisma's P codes, socket codes, adapter kinds). */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== "object" || depth > MAX_DEPTH) return [];
  const e = error as ErrorLike;
  const own = [e.code, e.originalCode, e.kind, e.meta?.code].filter((c): c is string => typeof c === "string");
  return [...own, ...errorCodes(e.cause, depth + 1), ...errorCodes(e.meta?.driverAdapterError, depth + 1)];
}

function errorMessages(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== "object" || depth > MAX_DEPTH) return [];
  const e = error as ErrorLike;
  return [
    ...(typeof e.message === "string" ? [e.message] : []),
    ...errorMessages(e.cause, depth + 1),
    ...errorMessages(e.meta?.driverAdapterError, depth + 1),
  ];
}

// 08xxx: connection exceptions. 57P01-57P03: the server is shutting down, crashed or starting.
// 57014: a statement cancelled (an administrator, or a shutdown). 53xxx: out of resources (too many
// connections). Prisma: P1001 unreachable, P1002/P1008 timed out, P1017 connection closed, P2024 no
// connection from the pool in time, P2028 a transaction that could not start or was closed under
// it, P2037 too many connections. Node: the socket refused, reset, broken or timed out. The driver
// adapter's kinds for the same.
const UNAVAILABLE_CODE =
  /^(08[0-9A-Z]{3}|57P0[123]|57014|53\d{3}|P1001|P1002|P1008|P1017|P2024|P2028|P2037|ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections)$/;

// What node-postgres and Prisma say without a code: a connection lost mid-query or mid-transaction,
// a client left unusable by that, the pool's own limits (client.ts) when the server does not answer.
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Can't reach database|Connection terminated|Connection closed|has closed the connection|connection error and is not queryable|Client was closed and is not queryable|Query read timeout|timeout exceeded when trying to connect|server closed the connection unexpectedly|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection/i;

/** The database cannot be reached, lost the connection or is too busy: not the request's fault (503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (errorCodes(error).some((c) => UNAVAILABLE_CODE.test(c))) return true;
  return errorMessages(error).some((m) => UNAVAILABLE_MESSAGE.test(m));
}

// 40P01: a deadlock, of which PostgreSQL aborted this transaction; 40001: a serialization failure;
// Prisma's P2034 for either. The transaction was rolled back whole, so running it again is safe.
const CONFLICT_CODE = /^(40P01|40001|P2034)$/;

/** The transaction lost a deadlock or a serialization conflict: it changed nothing, and may run again. */
export function isTransactionConflict(error: unknown): boolean {
  return errorCodes(error).some((c) => CONFLICT_CODE.test(c));
}
