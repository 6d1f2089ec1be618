// A stand-in for a Gardener garden cluster's API server, for tests of the live garden: a plain
// node:http server in the test process that speaks kube-apiserver's wire protocol for Gardener's
// core.gardener.cloud/v1beta1 resources (CloudProfile, Seed, Project, Shoot), so that code using
// @kubernetes/client-node can run against it unchanged. What it does, as kube-apiserver and
// gardener-apiserver do:
//
// - one resourceVersion counter for every write (etcd's revision), an event log for watches, and
//   compact() to forget it (a watch or a continue token from before then gets 410 Gone/Expired);
// - bearer tokens, impersonation (Impersonate-User, repeated Impersonate-Group) and a small RBAC
//   (`rbac`), with Kubernetes' own 401/403 Status bodies; (self) subject access reviews;
// - get, list (limit/continue over a consistent snapshot, label and field selectors), watch
//   (replay from a resourceVersion, bookmarks, timeoutSeconds), create, update (PUT), JSON and
//   merge patch, delete; optimistic concurrency (409 Conflict on a stale resourceVersion);
// - Gardener's own rules: the shoots/binding subresource (only spec.seedName changes; the main
//   resource keeps the stored seed), the deletion confirmation annotation, a deleted shoot staying
//   with a deletionTimestamp until the test calls remove() (Gardener's finalizer), the shoot
//   strategy's generation rules (lib/engine/shoot-strategy.ts), the status only by "Gardener"
//   (update()/put(): the API keeps the stored status, as the /status subresource would);
// - the shoots/viewerkubeconfig subresource (POST, RBAC verb "create"): Gardener's
//   ViewerKubeconfigRequest validation (at least 600 s), the viewer user
//   "gardener.cloud:viewer:<user>" in gardener.cloud:system:viewers when the requester may list
//   projects, else gardener.cloud:project:viewers, and a kubeconfig for the shoot API server the
//   test serves for that shoot (serveShoot; stand-in-shoot.ts). Gardener signs a client certificate
//   with the shoot's client CA; the stand-in issues a bearer token instead (no X.509 here).
//
// Tests set the garden's state with put/update/remove (as Gardener's controllers would, emitting
// watch events) and look at what the client asked in `requests`.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { stringify as toYaml } from "yaml";
import { matchLabelSelector } from "../../lib/engine/label-selector.ts";
import { prepareShootForUpdate } from "../../lib/engine/shoot-strategy.ts";
import type { Shoot } from "../../lib/gardener/types.ts";

export type Kind = "CloudProfile" | "NamespacedCloudProfile" | "Seed" | "Project" | "Shoot";

/** Who issues a shoot's viewer kubeconfigs: its API server (tests/support/stand-in-shoot.ts). */
export interface ViewerKubeconfigIssuer {
  /** A kubeconfig (YAML) for `user` in `groups`, valid `expirationSeconds`, and when it expires. */
  issueViewerKubeconfig(
    user: string,
    groups: string[],
    expirationSeconds: number,
  ): { kubeconfig: string; expirationTimestamp: string };
}

export interface RbacRule {
  /** Who: a request matches when its user is listed or one of its groups is. */
  users?: string[];
  groups?: string[];
  /** "get","list","watch","create","update","patch","delete","impersonate","*". */
  verbs: string[];
  /**
   * "shoots","shoots/binding","shoots/viewerkubeconfig","cloudprofiles","namespacedcloudprofiles","seeds",
   * "projects","users","groups","subjectaccessreviews","*".
   */
  resources: string[];
  /** Absent: cluster-wide (every namespace and the cluster scope). */
  namespaces?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType?: string;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body?: unknown;
  /** Who the request ran as (after impersonation). */
  user: string;
  groups: string[];
  /** The authenticated user, when the request impersonated `user`. */
  impersonatedBy?: string;
}

export interface Refusal {
  code: number;
  reason: string;
  message: string;
}

export interface KubeconfigOptions {
  /** Bearer token of the user (default: almanacToken). */
  token?: string;
  /** Name of the context, the current one (default "stand-in"). */
  context?: string;
  /** Where to write it (default: a new temporary file, removed by close()). */
  file?: string;
  /** The user's `as`: client-node then sends Impersonate-User (it has no way to send groups). */
  as?: string;
  /**
   * The user's `tokenFile` (as written, relative to the kubeconfig's folder or absolute) instead of
   * `token`: Gardener's generic token kubeconfig. The test writes (and rotates) the file itself.
   */
  tokenFile?: string;
}

export interface StandInGarden {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Bearer token of Almanac's own identity. */
  readonly almanacToken: string;
  /**
   * The API server the shoot's shoots/viewerkubeconfig issues kubeconfigs for (without one: 422, as
   * Gardener answers for a shoot without advertised addresses).
   */
  serveShoot(namespace: string, name: string, issuer: ViewerKubeconfigIssuer): void;
  /** "system:serviceaccount:garden:almanac" */
  readonly almanacUser: string;
  /** Writes a kubeconfig for the stand-in and returns its path. */
  writeKubeconfig(options?: KubeconfigOptions): string;
  /** A bearer token for `user` (with `groups`, plus "system:authenticated"). */
  addToken(token: string, user: string, groups?: string[]): void;
  /** The token no longer authenticates (401), as after a rotation or revocation. */
  revokeToken(token: string): void;
  /** How many TCP connections clients have opened to the stand-in so far. */
  connections(): number;
  /** Mutable; the almanac identity gets "*" on "*" (impersonation included) by default. */
  rbac: RbacRule[];
  /**
   * Create or replace (as the garden's own controllers would): a UUID metadata.uid and a
   * creationTimestamp on create (unless given), generation 1 then +1 when the spec changes, a new
   * resourceVersion; emits ADDED or MODIFIED. Returns the stored object (with apiVersion and kind).
   */
  put(kind: Kind, object: object): any;
  /** Mutate in place (e.g. the status, as Gardener): a new resourceVersion, MODIFIED. */
  update(kind: Kind, namespace: string | undefined, name: string, change: (object: any) => void): any;
  /** Delete at once (finishing a shoot's deletion): DELETED with a new resourceVersion. */
  remove(kind: Kind, namespace: string | undefined, name: string): void;
  /** A deep copy (with apiVersion and kind), or undefined. */
  get(kind: Kind, namespace: string | undefined, name: string): any | undefined;
  /** Deep copies (with apiVersion and kind), in the API's order (namespace, name). */
  list(kind: Kind): any[];
  /** Every API request (not /version or the health checks), in order. */
  readonly requests: RecordedRequest[];
  /**
   * Like an admission webhook, for create, update, patch, binding and delete (then `updated` is
   * undefined): a returned refusal answers as a Status with that code, reason and message.
   */
  admit: ((request: RecordedRequest, old: any, updated: any) => Refusal | undefined) | undefined;
  /** Abruptly end every open watch (the socket destroyed mid-stream). */
  dropWatches(): void;
  /** End every open watch cleanly (as kube-apiserver does when a watch's request timeout expires). */
  endWatches(): void;
  /** Forget the event history: a watch (or continue) from an older resourceVersion gets 410. */
  compact(): void;
  /** How many watch streams are open now. */
  openWatches(): number;
  /** Bytes of watch events written but not yet taken by the socket (a client that does not read). */
  watchBacklogBytes(): number;
  /**
   * Writes `line` as it is (broken JSON, an object of another kind, without a name...) to every
   * open watch of `kind`, as a faulty garden or proxy would; it is not kept in the history.
   */
  sendRaw(kind: Kind, line: string): void;
  /**
   * The `page`-th list request of `kind` from now on (1: the next) fails once: answered with the
   * HTTP status `how` (a Status object), or, "unreachable", with the connection cut.
   */
  failListRequest(kind: Kind, page: number, how: number | "unreachable"): void;
  /** Interval of BOOKMARK events (watches with allowWatchBookmarks=true); default 1000. */
  bookmarkIntervalMs: number;
  /** The current resourceVersion (the last write's). */
  resourceVersion(): string;
  close(): Promise<void>;
}

const GROUP = "core.gardener.cloud";
const VERSION = "v1beta1";
const API_VERSION = `${GROUP}/${VERSION}`;
const AUTHORIZATION_GROUP = "authorization.k8s.io";
const DELETION_CONFIRMATION = "confirmation.gardener.cloud/deletion";
const DELETION_CONFIRMED_BY = "deletion.gardener.cloud/confirmed-by";
const SHOOT_IGNORE = "shoot.gardener.cloud/ignore";
const ALMANAC_USER = "system:serviceaccount:garden:almanac";

/** Go's strconv.ParseBool, true only for its true spellings. */
function parseBool(value: unknown): boolean {
  return typeof value === "string" && ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

interface KindInfo {
  plural: string;
  namespaced: boolean;
  /** gardener-apiserver keeps the status on updates of the main resource (a /status subresource). */
  statusSubresource: boolean;
  /** Gardener's deletion confirmation admission plugin covers it. */
  confirmDeletion: boolean;
}

const KINDS: Record<Kind, KindInfo> = {
  CloudProfile: { plural: "cloudprofiles", namespaced: false, statusSubresource: false, confirmDeletion: false },
  // status.cloudProfileSpec is Gardener's controller's to write: tests set it with put or update.
  NamespacedCloudProfile: {
    plural: "namespacedcloudprofiles",
    namespaced: true,
    statusSubresource: true,
    confirmDeletion: false,
  },
  Seed: { plural: "seeds", namespaced: false, statusSubresource: true, confirmDeletion: false },
  Project: { plural: "projects", namespaced: false, statusSubresource: true, confirmDeletion: true },
  Shoot: { plural: "shoots", namespaced: true, statusSubresource: true, confirmDeletion: true },
};

const KIND_BY_PLURAL = new Map<string, Kind>(Object.entries(KINDS).map(([kind, info]) => [info.plural, kind as Kind]));

// ---------------------------------------------------------------------------------------------
// Status errors, in Kubernetes' words (k8s.io/apimachinery/pkg/api/errors).

interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
}

class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  status(): object {
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

function notFound(plural: string, name: string): ApiError {
  return new ApiError(404, "NotFound", `${qualified(plural, GROUP)} "${name}" not found`, {
    name,
    group: GROUP,
    kind: plural,
  });
}

function forbidden(resource: string, group: string, name: string, why: string): ApiError {
  const subject = name ? `${qualified(resource, group)} "${name}"` : qualified(resource, group);
  return new ApiError(403, "Forbidden", `${subject} is forbidden: ${why}`, {
    ...(name ? { name } : {}),
    ...(group ? { group } : {}),
    kind: resource,
  });
}

function conflict(plural: string, name: string, why: string): ApiError {
  return new ApiError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualified(plural, GROUP)} "${name}": ${why}`,
    {
      name,
      group: GROUP,
      kind: plural,
    },
  );
}

const OBJECT_MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

interface FieldError {
  field: string;
  /** "FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", ... */
  type: string;
  /** The detail, e.g. `Invalid value: "x": field is immutable`. */
  detail: string;
}

function invalid(kind: string, group: string, name: string, errors: FieldError[]): ApiError {
  const parts = errors.map((e) => `${e.field}: ${e.detail}`);
  const list = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  return new ApiError(422, "Invalid", `${qualified(kind, group)} "${name}" is invalid: ${list}`, {
    name,
    group,
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.detail, field: e.field })),
  });
}

/** A JSON patch that does not apply: NewGenericServerResponse(422, ...) as kube-apiserver's patcher. */
function patchFailed(message: string): ApiError {
  return new ApiError(422, "Invalid", "the server rejected our request due to an error in our request", {
    causes: [{ reason: "UnexpectedServerResponse", message }],
  });
}

function badRequest(message: string): ApiError {
  return new ApiError(400, "BadRequest", message);
}

function internalError(message: string): ApiError {
  return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

const UNAUTHORIZED = new ApiError(401, "Unauthorized", "Unauthorized");

// ---------------------------------------------------------------------------------------------
// JSON documents.

type Json = any;

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/**
 * Gardener's DeletionConfirmation plugin (Admit, on update): whoever turns the confirmation on is
 * recorded in deletion.gardener.cloud/confirmed-by; it stays while confirmed, and goes with it.
 */
function withConfirmer(old: Json, next: Json, user: string): Json {
  const confirmed = (o: Json) => parseBool(o.metadata?.annotations?.[DELETION_CONFIRMATION]);
  const annotations = { ...next.metadata.annotations };
  if (!confirmed(next)) delete annotations[DELETION_CONFIRMED_BY];
  else if (!confirmed(old)) annotations[DELETION_CONFIRMED_BY] = user;
  else if (old.metadata.annotations?.[DELETION_CONFIRMED_BY] !== undefined)
    annotations[DELETION_CONFIRMED_BY] = old.metadata.annotations[DELETION_CONFIRMED_BY];
  else delete annotations[DELETION_CONFIRMED_BY];
  if (isDeepStrictEqual(annotations, next.metadata.annotations ?? {})) return next;
  return { ...next, metadata: { ...next.metadata, annotations } };
}

class PatchError extends Error {}

function parsePointer(pointer: unknown, op: string): string[] {
  if (typeof pointer !== "string") throw new PatchError(`${op} operation: missing path`);
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchError(`${op} operation: invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function arrayIndex(token: string, length: number, allowEnd: boolean, op: string, pointer: string): number {
  if (allowEnd && token === "-") return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new PatchError(`${op} operation: invalid array index "${token}" in "${pointer}"`);
  const index = Number(token);
  if (index > length || (!allowEnd && index === length))
    throw new PatchError(`${op} operation does not apply: index ${index} out of bounds in "${pointer}"`);
  return index;
}

/** RFC 6902 JSON patch (add, remove, replace, move, copy, test). Throws PatchError. */
export function applyJsonPatch(document: Json, operations: Json[]): Json {
  // The document sits under a holder, so that the root ("") is a member like any other.
  const holder: Record<string, Json> = { root: clone(document) };

  const locate = (pointer: unknown, op: string): { container: Json; key: string; path: string } => {
    const tokens = ["root", ...parsePointer(pointer, op)];
    let container: Json = holder;
    for (const token of tokens.slice(0, -1)) {
      if (Array.isArray(container))
        container = container[arrayIndex(token, container.length, false, op, String(pointer))];
      else if (isObject(container) && Object.hasOwn(container, token)) container = container[token];
      else throw new PatchError(`${op} operation does not apply: doc is missing path: "${String(pointer)}"`);
    }
    if (!Array.isArray(container) && !isObject(container))
      throw new PatchError(`${op} operation does not apply: doc is missing path: "${String(pointer)}"`);
    return { container, key: tokens[tokens.length - 1], path: String(pointer) };
  };
  const read = (pointer: unknown, op: string): Json => {
    const { container, key, path: p } = locate(pointer, op);
    if (Array.isArray(container)) return container[arrayIndex(key, container.length, false, op, p)];
    if (!Object.hasOwn(container, key))
      throw new PatchError(`${op} operation does not apply: doc is missing key: "${p}"`);
    return container[key];
  };
  const add = (pointer: unknown, value: Json, op: string) => {
    const { container, key, path: p } = locate(pointer, op);
    if (Array.isArray(container)) container.splice(arrayIndex(key, container.length, true, op, p), 0, value);
    else container[key] = value;
  };
  const remove = (pointer: unknown, op: string): Json => {
    const { container, key, path: p } = locate(pointer, op);
    if (container === holder) throw new PatchError(`${op} operation: cannot remove the whole document`);
    if (Array.isArray(container)) return container.splice(arrayIndex(key, container.length, false, op, p), 1)[0];
    if (!Object.hasOwn(container, key))
      throw new PatchError(`${op} operation does not apply: doc is missing key: "${p}"`);
    const removed = container[key];
    delete container[key];
    return removed;
  };

  for (const operation of operations) {
    if (!isObject(operation)) throw new PatchError("a JSON patch operation must be an object");
    const op = operation.op;
    const needValue = () => {
      if (!Object.hasOwn(operation, "value")) throw new PatchError(`${String(op)} operation: missing value`);
      return clone(operation.value);
    };
    switch (op) {
      case "add":
        add(operation.path, needValue(), op);
        break;
      case "remove":
        remove(operation.path, op);
        break;
      case "replace": {
        const value = needValue();
        read(operation.path, op);
        const { container, key, path: p } = locate(operation.path, op);
        if (Array.isArray(container)) container[arrayIndex(key, container.length, false, op, p)] = value;
        else container[key] = value;
        break;
      }
      case "move": {
        const from = String(operation.from);
        if (typeof operation.from !== "string") throw new PatchError("move operation: missing from");
        if (String(operation.path).startsWith(`${from}/`))
          throw new PatchError(`move operation: cannot move "${from}" into its own child "${String(operation.path)}"`);
        if (from === operation.path) {
          read(from, op);
          break;
        }
        add(operation.path, remove(from, op), op);
        break;
      }
      case "copy":
        if (typeof operation.from !== "string") throw new PatchError("copy operation: missing from");
        add(operation.path, clone(read(operation.from, op)), op);
        break;
      case "test": {
        const expected = needValue();
        // As evanphx/json-patch: a path whose parent is missing (a worker pool removed, or moved
        // past the list's end) does not apply at all; a missing last key reads as null.
        try {
          locate(operation.path, op);
        } catch {
          throw new PatchError(
            `test operation does not apply: is missing path: ${String(operation.path)}: missing value`,
          );
        }
        let actual: Json;
        try {
          actual = read(operation.path, op);
        } catch {
          actual = undefined;
        }
        if (!isDeepStrictEqual(actual, expected))
          throw new PatchError(`testing value ${String(operation.path)} failed: test failed`);
        break;
      }
      default:
        throw new PatchError(`Unexpected kind: ${String(op)}`);
    }
  }
  return holder.root;
}

// ---------------------------------------------------------------------------------------------
// Label and field selectors.

type Requirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!" };

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

function parseLabelSelector(selector: string | null): Requirement[] {
  if (!selector) return [];
  return splitTopLevel(selector).map((term) => {
    let m = /^([^\s=!(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (m)
      return {
        key: m[1],
        op: m[2] as "in" | "notin",
        values: m[3]
          .split(",")
          .map((v) => v.trim())
          .filter((v) => v !== ""),
      };
    m = /^!\s*([^\s=!(),]+)$/.exec(term);
    if (m) return { key: m[1], op: "!" };
    m = /^([^\s=!(),]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(term);
    if (m) return { key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
    m = /^([^\s=!(),]+)$/.exec(term);
    if (m) return { key: m[1], op: "exists" };
    throw badRequest(`unable to parse requirement: found '${term}', expected: a valid label selector`);
  });
}

function parseFieldSelector(selector: string | null): Requirement[] {
  if (!selector) return [];
  return splitTopLevel(selector).map((term) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    return { key: m[1], op: m[2] === "!=" ? "!=" : "=", value: m[3] };
  });
}

function satisfies(requirements: Requirement[], lookup: (key: string) => string | undefined): boolean {
  return requirements.every((r) => {
    const value = lookup(r.key);
    switch (r.op) {
      case "=":
        return value === r.value;
      case "!=":
        return value !== r.value;
      case "in":
        return value !== undefined && r.values.includes(value);
      case "notin":
        return value === undefined || !r.values.includes(value);
      case "exists":
        return value !== undefined;
      case "!":
        return value === undefined;
    }
  });
}

function fieldValue(object: Json, dotted: string): string {
  let current: Json = object;
  for (const part of dotted.split(".")) current = isObject(current) ? current[part] : undefined;
  return current === undefined || current === null ? "" : String(current);
}

interface Selectors {
  labels: Requirement[];
  fields: Requirement[];
}

function selects(selectors: Selectors, object: Json): boolean {
  const labels: Record<string, string> = object.metadata?.labels ?? {};
  return (
    satisfies(selectors.labels, (key) => (Object.hasOwn(labels, key) ? labels[key] : undefined)) &&
    satisfies(selectors.fields, (key) => fieldValue(object, key))
  );
}

// ---------------------------------------------------------------------------------------------
// The server.

type EventType = "ADDED" | "MODIFIED" | "DELETED";

interface LogEntry {
  rv: number;
  type: EventType;
  kind: Kind;
  key: string;
  /** The object as the event carries it (for DELETED: the last state with the new rv). */
  object: Json;
  /** The stored object before the event (MODIFIED, DELETED). */
  previous?: Json;
}

interface Watcher {
  kind: Kind;
  namespace?: string;
  selectors: Selectors;
  response: http.ServerResponse;
  timers: NodeJS.Timeout[];
  closed: boolean;
}

interface Identity {
  user: string;
  groups: string[];
}

interface Target {
  kind: Kind;
  info: KindInfo;
  namespace?: string;
  name?: string;
  subresource?: "binding" | "viewerkubeconfig";
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

function withType(kind: Kind, object: Json): Json {
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return { apiVersion: API_VERSION, kind, ...clone(rest) };
}

function withoutType(object: Json): Json {
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return rest;
}

function sendJson(response: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Audit-Id": randomUUID(),
  });
  response.end(text);
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function randomSuffix(): string {
  const alphabet = "bcdfghjklmnpqrstvwxz2456789";
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += alphabet[Math.floor(Math.random() * alphabet.length)];
  return suffix;
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

class Garden implements StandInGarden {
  url = "";
  readonly almanacToken = `almanac-${randomUUID()}`;
  readonly almanacUser = ALMANAC_USER;
  rbac: RbacRule[] = [{ users: [ALMANAC_USER], verbs: ["*"], resources: ["*"] }];
  private readonly shootServers = new Map<string, ViewerKubeconfigIssuer>();
  readonly requests: RecordedRequest[] = [];
  admit: ((request: RecordedRequest, old: any, updated: any) => Refusal | undefined) | undefined = undefined;
  bookmarkIntervalMs: number;
  private readonly managedFieldsBytes: number;

  private readonly server: http.Server;
  private readonly tokens = new Map<string, Identity>();
  private readonly store = new Map<Kind, Map<string, Json>>(
    (Object.keys(KINDS) as Kind[]).map((kind) => [kind, new Map<string, Json>()]),
  );
  private log: LogEntry[] = [];
  private revision = 100;
  /** Events up to this revision are forgotten (compact()). */
  private compactedRevision = 0;
  private readonly watchers = new Set<Watcher>();
  private readonly temporaryDirectories: string[] = [];
  private connectionCount = 0;
  private readonly listFaults = new Map<Kind, { remaining: number; how: number | "unreachable" }>();

  constructor(bookmarkIntervalMs: number, managedFieldsBytes = 0) {
    this.bookmarkIntervalMs = bookmarkIntervalMs;
    this.managedFieldsBytes = managedFieldsBytes;
    this.tokens.set(this.almanacToken, {
      user: ALMANAC_USER,
      groups: ["system:serviceaccounts", "system:serviceaccounts:garden"],
    });
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, internalError(String(error)).status());
        else response.destroy();
      });
    });
    this.server.on("connection", () => this.connectionCount++);
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  // --- the test's side --------------------------------------------------------------------------

  writeKubeconfig(options: KubeconfigOptions = {}): string {
    const context = options.context ?? "stand-in";
    const config = {
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "stand-in-garden", cluster: { server: this.url, "insecure-skip-tls-verify": true } }],
      users: [
        {
          name: `${context}-user`,
          user: {
            ...(options.tokenFile !== undefined
              ? { tokenFile: options.tokenFile }
              : { token: options.token ?? this.almanacToken }),
            ...(options.as ? { as: options.as } : {}),
          },
        },
      ],
      contexts: [{ name: context, context: { cluster: "stand-in-garden", user: `${context}-user` } }],
      "current-context": context,
      preferences: {},
    };
    let file = options.file;
    if (!file) {
      const directory = fs.mkdtempSync(path.join(os.tmpdir(), "stand-in-garden-"));
      this.temporaryDirectories.push(directory);
      file = path.join(directory, "kubeconfig");
    }
    fs.writeFileSync(file, toYaml(config), { mode: 0o600 });
    return file;
  }

  serveShoot(namespace: string, name: string, issuer: ViewerKubeconfigIssuer): void {
    this.shootServers.set(keyOf(namespace, name), issuer);
  }

  addToken(token: string, user: string, groups: string[] = []): void {
    this.tokens.set(token, { user, groups: [...groups] });
  }

  revokeToken(token: string): void {
    this.tokens.delete(token);
  }

  connections(): number {
    return this.connectionCount;
  }

  put(kind: Kind, object: object): any {
    const info = KINDS[kind];
    const incoming = withoutType(clone(object as Json));
    const metadata = incoming.metadata;
    if (!isObject(metadata) || typeof metadata.name !== "string" || !metadata.name)
      throw new Error(`put(${kind}): metadata.name is required`);
    if (info.namespaced && !metadata.namespace) throw new Error(`put(${kind}): metadata.namespace is required`);
    if (!info.namespaced) delete metadata.namespace;
    const key = keyOf(metadata.namespace, metadata.name);
    const existing = this.store.get(kind)!.get(key);
    metadata.uid = metadata.uid ?? existing?.metadata.uid ?? randomUUID();
    metadata.creationTimestamp = metadata.creationTimestamp ?? existing?.metadata.creationTimestamp ?? now();
    if (!existing) metadata.generation = metadata.generation ?? 1;
    else if (metadata.generation === undefined || metadata.generation === existing.metadata.generation)
      metadata.generation =
        (existing.metadata.generation ?? 1) + (isDeepStrictEqual(existing.spec, incoming.spec) ? 0 : 1);
    return withType(kind, this.write(kind, key, incoming, existing ? "MODIFIED" : "ADDED", existing));
  }

  update(kind: Kind, namespace: string | undefined, name: string, change: (object: any) => void): any {
    const key = keyOf(KINDS[kind].namespaced ? namespace : undefined, name);
    const existing = this.store.get(kind)!.get(key);
    if (!existing) throw new Error(`update: ${kind} ${key} does not exist`);
    const next = withType(kind, existing);
    change(next);
    const stored = withoutType(next);
    stored.metadata = { ...stored.metadata, name: existing.metadata.name, uid: existing.metadata.uid };
    if (existing.metadata.namespace) stored.metadata.namespace = existing.metadata.namespace;
    if (stored.metadata.generation === existing.metadata.generation && !isDeepStrictEqual(existing.spec, stored.spec))
      stored.metadata.generation = (existing.metadata.generation ?? 1) + 1;
    return withType(kind, this.write(kind, key, stored, "MODIFIED", existing));
  }

  remove(kind: Kind, namespace: string | undefined, name: string): void {
    const key = keyOf(KINDS[kind].namespaced ? namespace : undefined, name);
    const existing = this.store.get(kind)!.get(key);
    if (!existing) return;
    this.write(kind, key, clone(existing), "DELETED", existing);
  }

  get(kind: Kind, namespace: string | undefined, name: string): any | undefined {
    const object = this.store.get(kind)!.get(keyOf(KINDS[kind].namespaced ? namespace : undefined, name));
    return object ? withType(kind, object) : undefined;
  }

  list(kind: Kind): any[] {
    const objects = this.store.get(kind)!;
    return [...objects.keys()].sort().map((key) => withType(kind, objects.get(key)));
  }

  dropWatches(): void {
    for (const watcher of [...this.watchers]) {
      this.forget(watcher);
      watcher.response.socket?.destroy();
      watcher.response.destroy();
    }
  }

  endWatches(): void {
    for (const watcher of [...this.watchers]) {
      this.forget(watcher);
      watcher.response.end();
    }
  }

  compact(): void {
    this.log = [];
    this.compactedRevision = this.revision;
  }

  openWatches(): number {
    return this.watchers.size;
  }

  watchBacklogBytes(): number {
    let bytes = 0;
    for (const watcher of this.watchers) bytes += watcher.response.writableLength;
    return bytes;
  }

  sendRaw(kind: Kind, line: string): void {
    for (const watcher of this.watchers)
      if (watcher.kind === kind && !watcher.closed) watcher.response.write(`${line}\n`);
  }

  failListRequest(kind: Kind, page: number, how: number | "unreachable"): void {
    this.listFaults.set(kind, { remaining: page, how });
  }

  /** Whether this list request is the one failListRequest asked to fail (and fails it). */
  private failedList(kind: Kind, response: http.ServerResponse): boolean {
    const fault = this.listFaults.get(kind);
    if (!fault || --fault.remaining > 0) return false;
    this.listFaults.delete(kind);
    if (fault.how === "unreachable") response.socket?.destroy();
    else
      sendJson(response, fault.how, new ApiError(fault.how, "InternalError", "the stand-in fails this list").status());
    return true;
  }

  resourceVersion(): string {
    return String(this.revision);
  }

  async close(): Promise<void> {
    for (const watcher of [...this.watchers]) {
      this.forget(watcher);
      watcher.response.destroy();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    for (const directory of this.temporaryDirectories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
  }

  // --- storage and watch events -----------------------------------------------------------------

  /** Stores `object` (or deletes it) under a new revision and tells the watchers. */
  private write(kind: Kind, key: string, object: Json, type: EventType, previous: Json | undefined): Json {
    this.revision++;
    const stored = clone(object);
    stored.metadata.resourceVersion = String(this.revision);
    // As a real API server keeps them (server-side apply): every writer's fields, about 12 KB on a shoot.
    if (this.managedFieldsBytes > 0 && type !== "DELETED")
      stored.metadata.managedFields = managedFieldsOfSize(this.managedFieldsBytes);
    if (type === "DELETED") this.store.get(kind)!.delete(key);
    else this.store.get(kind)!.set(key, stored);
    const entry: LogEntry = { rv: this.revision, type, kind, key, object: stored, previous: clone(previous) };
    this.log.push(entry);
    for (const watcher of this.watchers) this.deliver(watcher, entry);
    return clone(stored);
  }

  /** The event a watcher sees for a log entry, if any (selectors may turn MODIFIED into ADDED or DELETED). */
  private eventFor(watcher: Watcher, entry: LogEntry): { type: EventType; object: Json } | undefined {
    if (entry.kind !== watcher.kind) return undefined;
    if (watcher.namespace !== undefined && entry.object.metadata.namespace !== watcher.namespace) return undefined;
    const matches = selects(watcher.selectors, entry.object);
    if (entry.type !== "MODIFIED") return matches ? { type: entry.type, object: entry.object } : undefined;
    const before = entry.previous !== undefined && selects(watcher.selectors, entry.previous);
    if (matches) return { type: before ? "MODIFIED" : "ADDED", object: entry.object };
    return before ? { type: "DELETED", object: entry.object } : undefined;
  }

  private deliver(watcher: Watcher, entry: LogEntry): void {
    const event = this.eventFor(watcher, entry);
    if (event) this.send(watcher, event.type, withType(watcher.kind, event.object));
  }

  private send(watcher: Watcher, type: string, object: Json): void {
    if (watcher.closed) return;
    watcher.response.write(`${JSON.stringify({ type, object })}\n`);
  }

  private forget(watcher: Watcher): void {
    watcher.closed = true;
    for (const timer of watcher.timers) clearTimeout(timer);
    this.watchers.delete(watcher);
  }

  /** The objects of a kind as they were at revision `rv` (undoing the logged events after it). */
  private snapshot(kind: Kind, rv: number): Map<string, Json> {
    const objects = new Map(this.store.get(kind)!);
    if (rv >= this.revision) return objects;
    if (rv < this.compactedRevision) throw new Error("compacted");
    for (let i = this.log.length - 1; i >= 0 && this.log[i].rv > rv; i--) {
      const entry = this.log[i];
      if (entry.kind !== kind) continue;
      if (entry.type === "ADDED") objects.delete(entry.key);
      else objects.set(entry.key, entry.previous);
    }
    return objects;
  }

  // --- HTTP ---------------------------------------------------------------------------------------

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const method = request.method ?? "GET";
    if (method === "GET" && url.pathname === "/version") {
      sendJson(response, 200, {
        major: "1",
        minor: "33",
        gitVersion: "v1.33.4",
        gitCommit: "0000000000000000000000000000000000000000",
        gitTreeState: "clean",
        buildDate: "2025-08-01T00:00:00Z",
        goVersion: "go1.24.6",
        compiler: "gc",
        platform: "linux/amd64",
      });
      return;
    }
    if (method === "GET" && ["/healthz", "/livez", "/readyz"].includes(url.pathname)) {
      response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
      response.end("ok");
      return;
    }

    const authorization = request.headers.authorization ?? "";
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
    const authenticated = bearer ? this.tokens.get(bearer) : undefined;
    if (!authenticated) {
      await readBody(request);
      sendJson(response, 401, UNAUTHORIZED.status());
      return;
    }

    const text = await readBody(request);
    let body: unknown;
    let bodyError: string | undefined;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch (error) {
        body = text;
        bodyError = (error as Error).message;
      }
    }
    const contentType = request.headers["content-type"];
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(contentType !== undefined ? { contentType } : {}),
      ...(body !== undefined ? { body } : {}),
      user: authenticated.user,
      groups: [...authenticated.groups, "system:authenticated"],
    };
    this.requests.push(record);

    try {
      const authenticatedIdentity = { user: record.user, groups: record.groups };
      const identity = this.impersonate(request, authenticatedIdentity);
      if (identity !== authenticatedIdentity) {
        record.impersonatedBy = record.user;
        record.user = identity.user;
        record.groups = identity.groups;
      }
      if (bodyError !== undefined && ["POST", "PUT", "PATCH"].includes(method))
        throw badRequest(`the body of the request could not be decoded as JSON: ${bodyError}`);
      await this.route(url, method, identity, record, response);
    } catch (error) {
      if (error instanceof ApiError) sendJson(response, error.code, error.status());
      else throw error;
    }
  }

  /** kube-apiserver's impersonation filter: the user needs "impersonate" on users (and groups). */
  private impersonate(request: http.IncomingMessage, identity: Identity): Identity {
    const users = request.headersDistinct["impersonate-user"] ?? [];
    const groups = request.headersDistinct["impersonate-group"] ?? [];
    if (users.length === 0) {
      if (groups.length > 0) throw internalError(`requested [${groups.join(" ")}] without impersonating a user`);
      return identity;
    }
    const user = users[0];
    const cannot = (resource: string, name: string) =>
      forbidden(
        resource,
        "",
        name,
        `User "${identity.user}" cannot impersonate resource "${resource}" in API group "" at the cluster scope`,
      );
    if (!this.allowed(identity, "impersonate", "users", "")) throw cannot("users", user);
    for (const group of groups) if (!this.allowed(identity, "impersonate", "groups", "")) throw cannot("groups", group);
    const impersonatedGroups = [...groups];
    const serviceAccount = /^system:serviceaccount:([^:]+):[^:]+$/.exec(user);
    if (serviceAccount && groups.length === 0)
      impersonatedGroups.push("system:serviceaccounts", `system:serviceaccounts:${serviceAccount[1]}`);
    if (!impersonatedGroups.includes("system:authenticated")) impersonatedGroups.push("system:authenticated");
    return { user, groups: impersonatedGroups };
  }

  /** The RBAC decision: any rule that names the user or one of its groups and covers the request. */
  private allowed(identity: Identity, verb: string, resource: string, namespace: string): boolean {
    const subresource = resource.includes("/") ? resource.slice(resource.indexOf("/") + 1) : "";
    return this.rbac.some(
      (rule) =>
        ((rule.users ?? []).includes(identity.user) || (rule.groups ?? []).some((g) => identity.groups.includes(g))) &&
        (rule.verbs.includes("*") || rule.verbs.includes(verb)) &&
        rule.resources.some((r) => r === "*" || r === resource || (subresource !== "" && r === `*/${subresource}`)) &&
        (rule.namespaces === undefined || (namespace !== "" && rule.namespaces.includes(namespace))),
    );
  }

  private authorize(identity: Identity, verb: string, target: Target): void {
    const resource = target.subresource ? `${target.info.plural}/${target.subresource}` : target.info.plural;
    const namespace = target.namespace ?? "";
    if (this.allowed(identity, verb, resource, namespace)) return;
    const scope = namespace ? `in the namespace "${namespace}"` : "at the cluster scope";
    throw forbidden(
      target.info.plural,
      GROUP,
      target.name ?? "",
      `User "${identity.user}" cannot ${verb} resource "${resource}" in API group "${GROUP}" ${scope}`,
    );
  }

  private async route(
    url: URL,
    method: string,
    identity: Identity,
    record: RecordedRequest,
    response: http.ServerResponse,
  ): Promise<void> {
    const segments = url.pathname
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
    const pageNotFound = new ApiError(404, "NotFound", "the server could not find the requested resource", {});

    if (
      segments[0] === "apis" &&
      segments[1] === AUTHORIZATION_GROUP &&
      segments[2] === "v1" &&
      segments.length === 4
    ) {
      if (segments[3] !== "selfsubjectaccessreviews" && segments[3] !== "subjectaccessreviews") throw pageNotFound;
      if (method !== "POST") throw methodNotAllowed();
      sendJson(response, 201, this.accessReview(segments[3], identity, record.body));
      return;
    }
    if (segments.length === 1 && segments[0] === "apis" && method === "GET") {
      sendJson(response, 200, {
        kind: "APIGroupList",
        apiVersion: "v1",
        groups: [
          {
            name: GROUP,
            versions: [{ groupVersion: API_VERSION, version: VERSION }],
            preferredVersion: { groupVersion: API_VERSION, version: VERSION },
          },
        ],
      });
      return;
    }
    if (segments[0] !== "apis" || segments[1] !== GROUP || segments[2] !== VERSION) throw pageNotFound;
    const rest = segments.slice(3);
    if (rest.length === 0) {
      if (method !== "GET") throw methodNotAllowed();
      sendJson(response, 200, discovery());
      return;
    }

    let namespace: string | undefined;
    let parts = rest;
    if (rest[0] === "namespaces" && rest.length >= 3) {
      namespace = rest[1];
      parts = rest.slice(2);
    }
    const [plural, name, subresource, ...extra] = parts;
    const kind = KIND_BY_PLURAL.get(plural);
    if (!kind || extra.length > 0) throw pageNotFound;
    const info = KINDS[kind];
    if (namespace !== undefined && !info.namespaced) throw pageNotFound;
    if (namespace === undefined && info.namespaced && name !== undefined) throw pageNotFound;
    if (
      subresource !== undefined &&
      !(kind === "Shoot" && (subresource === "binding" || subresource === "viewerkubeconfig"))
    )
      throw pageNotFound;
    const target: Target = {
      kind,
      info,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(name !== undefined ? { name } : {}),
      ...(subresource !== undefined ? { subresource: subresource as "binding" | "viewerkubeconfig" } : {}),
    };
    if (target.subresource === "viewerkubeconfig") {
      if (method !== "POST") throw methodNotAllowed();
      this.authorize(identity, "create", target);
      sendJson(response, 201, this.viewerKubeconfig(target, identity, record.body));
      return;
    }
    const dryRun = url.searchParams.getAll("dryRun").includes("All");
    if (url.searchParams.getAll("dryRun").some((v) => v !== "All"))
      throw badRequest(`Invalid dryRun value: ${url.searchParams.getAll("dryRun").join(",")}; supported values: "All"`);

    if (name === undefined) {
      if (method === "GET") {
        const watch = url.searchParams.get("watch");
        if (watch === "true" || watch === "1") {
          this.authorize(identity, "watch", target);
          this.startWatch(target, url.searchParams, response);
        } else {
          this.authorize(identity, "list", target);
          if (this.failedList(kind, response)) return;
          sendJson(response, 200, this.listResponse(target, url.searchParams));
        }
        return;
      }
      if (method === "POST") {
        this.authorize(identity, "create", target);
        sendJson(response, 201, this.create(target, record, dryRun));
        return;
      }
      throw methodNotAllowed();
    }

    switch (method) {
      case "GET":
        if (!subresource && ["true", "1"].includes(url.searchParams.get("watch") ?? "")) {
          // The old watch of one object: a watch of the collection selected by metadata.name.
          this.authorize(identity, "watch", target);
          this.startWatch(target, url.searchParams, response);
          return;
        }
        this.authorize(identity, "get", target);
        sendJson(response, 200, withType(kind, this.existing(target)));
        return;
      case "PUT":
        this.authorize(identity, "update", target);
        sendJson(response, 200, this.replace(target, record, dryRun));
        return;
      case "PATCH":
        this.authorize(identity, "patch", target);
        sendJson(response, 200, this.patch(target, record, dryRun));
        return;
      case "DELETE":
        if (subresource) throw methodNotAllowed();
        this.authorize(identity, "delete", target);
        sendJson(response, 200, this.delete(target, record, dryRun));
        return;
      default:
        throw methodNotAllowed();
    }
  }

  /**
   * gardener-apiserver's KubeconfigREST for viewers (registry/core/shoot/storage): validate the
   * request, find the shoot, issue a kubeconfig for its API server to the requester.
   */
  private viewerKubeconfig(target: Target, identity: Identity, body: unknown): Json {
    const kind = "ViewerKubeconfigRequest";
    const group = "authentication.gardener.cloud";
    if (body !== undefined && !isObject(body)) throw badRequest("the body of the request must be an object");
    const request: Record<string, Json> = isObject(body) ? body : {};
    if (request.kind !== undefined && request.kind !== kind)
      throw badRequest(`the kind in the data (${String(request.kind)}) does not match the expected kind (${kind})`);
    const spec = isObject(request.spec) ? request.spec : {};
    const seconds = spec.expirationSeconds ?? 3600;
    if (typeof seconds !== "number" || seconds < 600)
      throw invalid(kind, group, "", [
        {
          field: "spec.expirationSeconds",
          type: "FieldValueInvalid",
          detail: `Invalid value: ${JSON.stringify(seconds)}: may not specify a duration less than 10 minutes`,
        },
      ]);
    const shoot = this.existing(target);
    const issuer = this.shootServers.get(keyOf(target.namespace, target.name!));
    if (!issuer)
      throw invalid(kind, group, shoot.metadata.name, [
        {
          field: "status.status",
          type: "FieldValueInvalid",
          detail:
            "Invalid value: null: no suitable advertised address for kube-apiserver found in .status.advertisedAddresses",
        },
      ]);
    // Gardener asks whether the requester may list projects: system viewers, else project viewers.
    const groups = this.allowed(identity, "list", "projects", "")
      ? ["gardener.cloud:system:viewers"]
      : ["gardener.cloud:project:viewers"];
    const issued = issuer.issueViewerKubeconfig(`gardener.cloud:viewer:${identity.user}`, groups, seconds);
    return {
      apiVersion: `${group}/v1alpha1`,
      kind,
      metadata: { creationTimestamp: null },
      spec: { expirationSeconds: seconds },
      status: {
        kubeconfig: Buffer.from(issued.kubeconfig, "utf8").toString("base64"),
        expirationTimestamp: issued.expirationTimestamp,
      },
    };
  }

  private existing(target: Target): Json {
    const object = this.store.get(target.kind)!.get(keyOf(target.namespace, target.name!));
    if (!object) throw notFound(target.info.plural, target.name!);
    return object;
  }

  // --- list and watch -----------------------------------------------------------------------------

  private listResponse(target: Target, query: URLSearchParams): Json {
    const selectors = {
      labels: parseLabelSelector(query.get("labelSelector")),
      fields: parseFieldSelector(query.get("fieldSelector")),
    };
    const limitText = query.get("limit");
    const limit = limitText ? Number(limitText) : 0;
    if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit: ${limitText}`);
    const continueText = query.get("continue");
    let rv = this.revision;
    let start = "";
    if (continueText) {
      let token: ContinueToken;
      try {
        token = JSON.parse(Buffer.from(continueText, "base64").toString("utf8")) as ContinueToken;
        if (token.v !== "meta.k8s.io/v1" || !Number.isInteger(token.rv) || typeof token.start !== "string")
          throw new Error("bad token");
      } catch {
        throw badRequest("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
      }
      if (token.rv < this.compactedRevision)
        throw new ApiError(
          410,
          "Expired",
          "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
        );
      rv = token.rv;
      start = token.start;
    } else if (query.get("resourceVersionMatch") === "Exact") {
      const rvText = query.get("resourceVersion") ?? "";
      if (!/^[1-9][0-9]*$/.test(rvText))
        throw badRequest(`resourceVersionMatch "Exact" needs a resourceVersion other than 0, got "${rvText}"`);
      rv = Number(rvText);
      if (rv < this.compactedRevision)
        throw new ApiError(410, "Expired", `too old resource version: ${rv} (${this.compactedRevision})`);
      if (rv > this.revision)
        throw new ApiError(504, "Timeout", `Too large resource version: ${rv}, current: ${this.revision}`, {
          causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
        });
    }
    const objects = this.snapshot(target.kind, rv);
    const keys = [...objects.keys()]
      .filter((key) => key > start)
      .sort()
      .filter((key) => {
        const object = objects.get(key);
        return (
          (target.namespace === undefined || object.metadata.namespace === target.namespace) &&
          selects(selectors, object)
        );
      });
    const page = limit > 0 ? keys.slice(0, limit) : keys;
    const metadata: Record<string, Json> = { resourceVersion: String(rv) };
    if (page.length < keys.length) {
      const last = page[page.length - 1];
      const token: ContinueToken = { v: "meta.k8s.io/v1", rv, start: `${last}\u0000` };
      metadata.continue = Buffer.from(JSON.stringify(token)).toString("base64");
      if (selectors.labels.length === 0 && selectors.fields.length === 0)
        metadata.remainingItemCount = keys.length - page.length;
    }
    return {
      apiVersion: API_VERSION,
      kind: `${target.kind}List`,
      metadata,
      items: page.map((key) => clone(objects.get(key))),
    };
  }

  private startWatch(target: Target, query: URLSearchParams, response: http.ServerResponse): void {
    const selectors = {
      labels: parseLabelSelector(query.get("labelSelector")),
      fields: parseFieldSelector(query.get("fieldSelector")),
    };
    if (target.name !== undefined) selectors.fields.push({ key: "metadata.name", op: "=", value: target.name });
    const rvText = query.get("resourceVersion") ?? "";
    const bookmarks = query.get("allowWatchBookmarks") === "true";
    // The streaming list (WatchList): the current objects as ADDED, then a BOOKMARK marking their end.
    const initialEvents = query.get("sendInitialEvents") === "true";
    if (initialEvents && (!bookmarks || query.get("resourceVersionMatch") !== "NotOlderThan"))
      throw invalid("ListOptions", "meta.k8s.io", "", [
        {
          field: "sendInitialEvents",
          type: "FieldValueForbidden",
          detail:
            "Forbidden: sendInitialEvents is allowed only with allowWatchBookmarks=true and resourceVersionMatch=NotOlderThan",
        },
      ]);
    let from: number | undefined;
    if (rvText !== "" && rvText !== "0" && !initialEvents) {
      if (!/^[0-9]+$/.test(rvText))
        throw badRequest(`resourceVersion: Invalid value: "${rvText}": must be a non-negative integer`);
      from = Number(rvText);
    }
    const timeoutSeconds = Number(query.get("timeoutSeconds") ?? "0");
    response.writeHead(200, {
      "Content-Type": "application/json",
      "Transfer-Encoding": "chunked",
      "Cache-Control": "no-cache, private",
      "Audit-Id": randomUUID(),
    });
    response.flushHeaders();
    const watcher: Watcher = {
      kind: target.kind,
      ...(target.namespace !== undefined ? { namespace: target.namespace } : {}),
      selectors,
      response,
      timers: [],
      closed: false,
    };
    if (from !== undefined && from < this.compactedRevision) {
      this.send(watcher, "ERROR", {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `too old resource version: ${from} (${this.compactedRevision})`,
        reason: "Expired",
        code: 410,
      });
      response.end();
      return;
    }
    if (from === undefined) {
      const objects = this.store.get(target.kind)!;
      for (const key of [...objects.keys()].sort()) {
        const object = objects.get(key);
        if (watcher.namespace !== undefined && object.metadata.namespace !== watcher.namespace) continue;
        if (selects(selectors, object)) this.send(watcher, "ADDED", withType(target.kind, object));
      }
    } else {
      for (const entry of this.log) if (entry.rv > from) this.deliver(watcher, entry);
    }
    this.watchers.add(watcher);
    const sendBookmark = () =>
      this.send(watcher, "BOOKMARK", {
        kind: target.kind,
        apiVersion: API_VERSION,
        metadata: { resourceVersion: String(this.revision), annotations: { "k8s.io/initial-events-end": "true" } },
      });
    if (initialEvents) sendBookmark();
    if (bookmarks) {
      const periodic = () => {
        sendBookmark();
        watcher.timers.push(setTimeout(periodic, this.bookmarkIntervalMs));
      };
      watcher.timers.push(setTimeout(periodic, this.bookmarkIntervalMs));
    }
    if (timeoutSeconds > 0)
      watcher.timers.push(
        setTimeout(() => {
          this.forget(watcher);
          response.end();
        }, timeoutSeconds * 1000),
      );
    // (Not the request's "close": that fires once its (empty) body has been read.)
    const gone = () => this.forget(watcher);
    response.on("close", gone);
    response.on("error", gone);
  }

  // --- writes -------------------------------------------------------------------------------------

  private create(target: Target, record: RecordedRequest, dryRun: boolean): Json {
    const { kind, info } = target;
    if (!isObject(record.body)) throw badRequest("the body of the request must be an object");
    if (record.body.kind !== undefined && record.body.kind !== kind)
      throw badRequest(`the kind in the data (${String(record.body.kind)}) does not match the expected kind (${kind})`);
    const object = withoutType(clone(record.body));
    const metadata: Record<string, Json> = isObject(object.metadata) ? object.metadata : {};
    object.metadata = metadata;
    if (!metadata.name && metadata.generateName) metadata.name = `${String(metadata.generateName)}${randomSuffix()}`;
    if (!metadata.name)
      throw invalid(kind, GROUP, "", [
        {
          field: "metadata.name",
          type: "FieldValueRequired",
          detail: "Required value: name or generateName is required",
        },
      ]);
    if (info.namespaced) {
      if (metadata.namespace !== undefined && metadata.namespace !== target.namespace)
        throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
      metadata.namespace = target.namespace;
    } else delete metadata.namespace;
    if (metadata.resourceVersion) throw internalError("resourceVersion should not be set on objects to be created");
    const key = keyOf(metadata.namespace, metadata.name);
    if (this.store.get(kind)!.has(key))
      throw new ApiError(409, "AlreadyExists", `${qualified(info.plural, GROUP)} "${metadata.name}" already exists`, {
        name: metadata.name,
        group: GROUP,
        kind: info.plural,
      });
    metadata.uid = randomUUID();
    metadata.creationTimestamp = now();
    metadata.generation = 1;
    delete metadata.deletionTimestamp;
    delete metadata.deletionGracePeriodSeconds;
    if (info.statusSubresource) delete object.status;
    this.admitOrThrow(target, record, undefined, object, metadata.name);
    if (dryRun) return withType(kind, object);
    return withType(kind, this.write(kind, key, object, "ADDED", undefined));
  }

  private replace(target: Target, record: RecordedRequest, dryRun: boolean): Json {
    const old = this.existing(target);
    if (!isObject(record.body)) throw badRequest("the body of the request must be an object");
    if (record.body.kind !== undefined && record.body.kind !== target.kind)
      throw badRequest(
        `the kind in the data (${String(record.body.kind)}) does not match the expected kind (${target.kind})`,
      );
    const candidate = withoutType(clone(record.body));
    const rv = candidate.metadata?.resourceVersion;
    if (!rv)
      throw invalid(target.kind, GROUP, target.name!, [
        {
          field: "metadata.resourceVersion",
          type: "FieldValueInvalid",
          detail: "Invalid value: 0x0: must be specified for an update",
        },
      ]);
    return this.commitUpdate(target, record, old, candidate, dryRun);
  }

  private patch(target: Target, record: RecordedRequest, dryRun: boolean): Json {
    const old = this.existing(target);
    const contentType = (record.contentType ?? "").split(";")[0].trim().toLowerCase();
    let patched: Json;
    if (contentType === "application/merge-patch+json") {
      if (!isObject(record.body)) throw badRequest("a merge patch must be a JSON object");
      patched = applyMergePatch(withType(target.kind, old), record.body);
    } else if (contentType === "application/json-patch+json") {
      if (!Array.isArray(record.body))
        throw badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
      try {
        patched = applyJsonPatch(withType(target.kind, old), record.body);
      } catch (error) {
        if (error instanceof PatchError) throw patchFailed(error.message);
        throw error;
      }
    } else {
      throw new ApiError(
        415,
        "UnsupportedMediaType",
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json`,
      );
    }
    if (!isObject(patched) || !isObject(patched.metadata)) throw badRequest("the patched object is not an object");
    if (patched.kind !== target.kind || patched.apiVersion !== API_VERSION)
      throw badRequest(`the patch changes apiVersion or kind of ${target.info.plural} "${target.name}"`);
    return this.commitUpdate(target, record, old, withoutType(patched), dryRun);
  }

  /** The common path of PUT and PATCH (main resource and binding), as the generic registry and the strategies. */
  private commitUpdate(target: Target, record: RecordedRequest, old: Json, candidate: Json, dryRun: boolean): Json {
    const { kind, info } = target;
    const name = target.name!;
    if (!isObject(candidate.metadata)) candidate.metadata = {};
    const metadata = candidate.metadata;
    if (metadata.name !== undefined && metadata.name !== name)
      throw badRequest(
        `the name of the object (${String(metadata.name)}) does not match the name on the URL (${name})`,
      );
    if (info.namespaced && metadata.namespace !== undefined && metadata.namespace !== target.namespace)
      throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
    // gardener-apiserver's ShootValidator is a mutating admission plugin: for a patch it runs as the
    // patch is applied, before the resourceVersion is compared; its plain error is a 500.
    if (
      target.subresource === "binding" &&
      isObject(candidate.spec) &&
      isDeepStrictEqual(candidate.spec.seedName, old.spec?.seedName)
    )
      throw internalError("update of binding rejected, shoot is already assigned to the same seed");
    const rv = metadata.resourceVersion;
    if (rv !== undefined && rv !== null && rv !== "" && rv !== old.metadata.resourceVersion)
      throw conflict(info.plural, name, OBJECT_MODIFIED);
    if (metadata.uid !== undefined && metadata.uid !== "" && metadata.uid !== old.metadata.uid)
      throw conflict(
        info.plural,
        name,
        `Precondition failed: UID in precondition: ${String(metadata.uid)}, UID in object meta: ${String(old.metadata.uid)}`,
      );

    // What clients cannot change: the server's fields of metadata, and the status on the main resource.
    metadata.name = name;
    if (info.namespaced) metadata.namespace = target.namespace;
    metadata.uid = old.metadata.uid;
    metadata.creationTimestamp = old.metadata.creationTimestamp;
    metadata.generation = old.metadata.generation;
    metadata.resourceVersion = old.metadata.resourceVersion;
    for (const field of ["deletionTimestamp", "deletionGracePeriodSeconds"]) {
      if (old.metadata[field] !== undefined) metadata[field] = old.metadata[field];
      else delete metadata[field];
    }
    if (info.statusSubresource) {
      if (old.status !== undefined) candidate.status = clone(old.status);
      else delete candidate.status;
    }

    if (kind === "Shoot" && !isObject(candidate.spec))
      throw invalid(kind, GROUP, name, [{ field: "spec", type: "FieldValueRequired", detail: "Required value" }]);
    let next = candidate;
    if (target.subresource === "binding") next = this.bindingUpdate(old, candidate, name);
    else if (kind === "Shoot") {
      // gardener-apiserver's shootStrategy.PrepareForUpdate: spec.seedName changes only through
      // shoots/binding (the main resource keeps the stored one, silently), then the generation rules.
      if (old.spec?.seedName === undefined) delete candidate.spec.seedName;
      else candidate.spec.seedName = old.spec.seedName;
      if (old.metadata.deletionTimestamp && !isDeepStrictEqual(old.spec, candidate.spec))
        throw invalid(kind, GROUP, name, [
          {
            field: "spec",
            type: "FieldValueForbidden",
            detail: "Forbidden: cannot update shoot spec if deletion timestamp is set",
          },
        ]);
      next = prepareShootForUpdate(old as Shoot, candidate as Shoot);
      next = withConfirmer(old, next, record.user);
    } else if (!isDeepStrictEqual(old.spec, next.spec))
      next = { ...next, metadata: { ...next.metadata, generation: (old.metadata.generation ?? 1) + 1 } };

    this.admitOrThrow(target, record, old, next, name);
    // etcd skips a write that changes nothing: no new resourceVersion, no event.
    if (dryRun || isDeepStrictEqual(next, old)) return withType(kind, next);
    return withType(kind, this.write(kind, keyOf(target.namespace, name), next, "MODIFIED", old));
  }

  /**
   * Gardener's shoots/binding (shootBindingStrategy): the request's metadata, the stored status, and
   * of the spec only spec.seedName (other spec changes are refused); generation +1 when it changes.
   */
  private bindingUpdate(old: Json, candidate: Json, name: string): Json {
    const newSeed = candidate.spec.seedName;
    const { seedName: _newSeed, ...newRest } = candidate.spec;
    const { seedName: _oldSeed, ...oldRest } = isObject(old.spec) ? old.spec : {};
    const errors: FieldError[] = [];
    if (!isDeepStrictEqual(newRest, oldRest))
      errors.push({
        field: "spec",
        type: "FieldValueForbidden",
        detail: "Forbidden: only spec.seedName can be changed using the binding subresource",
      });
    if (old.spec?.seedName && !newSeed)
      errors.push({
        field: "spec.seedName",
        type: "FieldValueForbidden",
        detail: "Forbidden: cannot set seedName to nil once it was set",
      });
    if (old.metadata.deletionTimestamp && newSeed !== old.spec?.seedName)
      errors.push({
        field: "spec.seedName",
        type: "FieldValueForbidden",
        detail: "Forbidden: cannot change seedName while the shoot is being deleted",
      });
    if (errors.length > 0) throw invalid("Shoot", GROUP, name, errors);
    const next = clone(candidate);
    next.spec = { ...clone(old.spec), ...(newSeed ? { seedName: newSeed } : {}) };
    const lastOperation = next.status?.lastOperation;
    if (!old.spec?.seedName && newSeed && lastOperation?.type === "Create" && lastOperation.state === "Pending")
      delete next.status.lastOperation; // "Create Pending" goes once a seed is set
    if (!isDeepStrictEqual(old.spec, next.spec)) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
    return next;
  }

  /**
   * Whether the project's dualApprovalForDeletion applies to `shoot` deleted by `user`
   * (checkIfDeletionMustBeDualApproved).
   */
  private dualApprovalFor(namespace: string | undefined, shoot: Json, user: string): boolean {
    const project = [...this.store.get("Project")!.values()].find((p) => p.spec?.namespace === namespace);
    for (const entry of project?.spec?.dualApprovalForDeletion ?? []) {
      if (entry.resource !== "shoots") continue;
      const matched = matchLabelSelector(entry.selector ?? {}, shoot.metadata.labels ?? {});
      if (!matched.ok || !matched.matches) return false;
      return user.startsWith("system:serviceaccount:") ? (entry.includeServiceAccounts ?? true) : true;
    }
    return false;
  }

  private delete(target: Target, record: RecordedRequest, dryRun: boolean): Json {
    const { kind, info } = target;
    const name = target.name!;
    const old = this.existing(target);
    const preconditions = isObject(record.body) && isObject(record.body.preconditions) ? record.body.preconditions : {};
    if (preconditions.uid && preconditions.uid !== old.metadata.uid)
      throw conflict(
        info.plural,
        name,
        `Precondition failed: UID in precondition: ${String(preconditions.uid)}, UID in object meta: ${String(old.metadata.uid)}`,
      );
    if (preconditions.resourceVersion && preconditions.resourceVersion !== old.metadata.resourceVersion)
      throw conflict(
        info.plural,
        name,
        `Precondition failed: ResourceVersion in precondition: ${String(preconditions.resourceVersion)}, ResourceVersion in object meta: ${String(old.metadata.resourceVersion)}`,
      );
    // Gardener's DeletionConfirmation admission plugin (strconv.ParseBool of the annotation).
    if (kind === "Shoot" && parseBool(old.metadata.annotations?.[SHOOT_IGNORE]))
      throw forbidden(info.plural, GROUP, name, `cannot delete shoot if ${SHOOT_IGNORE} annotation is set`);
    if (info.confirmDeletion && !parseBool(old.metadata.annotations?.[DELETION_CONFIRMATION]))
      throw forbidden(info.plural, GROUP, name, `must have a "${DELETION_CONFIRMATION}" annotation to delete`);
    if (
      kind === "Shoot" &&
      old.metadata.annotations?.[DELETION_CONFIRMED_BY] === record.user &&
      this.dualApprovalFor(target.namespace, old, record.user)
    )
      throw forbidden(
        info.plural,
        GROUP,
        name,
        "you are not allowed to both confirm the deletion and send the actual DELETE request - another subject must perform the deletion",
      );
    this.admitOrThrow(target, record, old, undefined, name);
    if (kind === "Shoot") {
      // Gardener's finalizer keeps the shoot until its deletion has finished (the test's remove()).
      if (old.metadata.deletionTimestamp) return withType(kind, old);
      const candidate = clone(old);
      candidate.metadata.deletionTimestamp = now();
      candidate.metadata.deletionGracePeriodSeconds = 0;
      const next = prepareShootForUpdate(old as Shoot, candidate as Shoot);
      if (dryRun) return withType(kind, next);
      return withType(kind, this.write(kind, keyOf(target.namespace, name), next, "MODIFIED", old));
    }
    if (!dryRun) this.write(kind, keyOf(target.namespace, name), clone(old), "DELETED", old);
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name, group: GROUP, kind: info.plural, uid: old.metadata.uid },
    };
  }

  private admitOrThrow(target: Target, record: RecordedRequest, old: Json, updated: Json, name: string): void {
    const refusal = this.admit?.(
      record,
      old === undefined ? undefined : withType(target.kind, old),
      updated === undefined ? undefined : withType(target.kind, updated),
    );
    if (refusal)
      throw new ApiError(refusal.code, refusal.reason, refusal.message, {
        name,
        group: GROUP,
        kind: target.info.plural,
      });
  }

  // --- access reviews -----------------------------------------------------------------------------

  private accessReview(resource: string, identity: Identity, body: unknown): Json {
    const self = resource === "selfsubjectaccessreviews";
    const kind = self ? "SelfSubjectAccessReview" : "SubjectAccessReview";
    if (!self && !this.allowed(identity, "create", "subjectaccessreviews", ""))
      throw forbidden(
        "subjectaccessreviews",
        AUTHORIZATION_GROUP,
        "",
        `User "${identity.user}" cannot create resource "subjectaccessreviews" in API group "${AUTHORIZATION_GROUP}" at the cluster scope`,
      );
    if (!isObject(body) || !isObject(body.spec)) throw badRequest(`a ${kind} needs a spec`);
    const spec = body.spec;
    let subject = identity;
    if (!self) {
      const groups = Array.isArray(spec.groups) ? spec.groups.map(String) : [];
      if (!spec.user && groups.length === 0)
        throw invalid(kind, AUTHORIZATION_GROUP, "", [
          {
            field: "spec.user",
            type: "FieldValueInvalid",
            detail: 'Invalid value: "": at least one of user or group must be specified',
          },
        ]);
      subject = { user: String(spec.user ?? ""), groups };
    }
    const attributes = isObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
    if (!attributes && !isObject(spec.nonResourceAttributes))
      throw invalid(kind, AUTHORIZATION_GROUP, "", [
        {
          field: "spec.resourceAttributes",
          type: "FieldValueInvalid",
          detail: "Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified",
        },
      ]);
    let allowed = false;
    if (attributes) {
      const resourceName = attributes.subresource
        ? `${String(attributes.resource ?? "")}/${String(attributes.subresource)}`
        : String(attributes.resource ?? "");
      allowed = this.allowed(subject, String(attributes.verb ?? ""), resourceName, String(attributes.namespace ?? ""));
    }
    return {
      kind,
      apiVersion: `${AUTHORIZATION_GROUP}/v1`,
      metadata: { creationTimestamp: null },
      spec: clone(spec),
      status: allowed ? { allowed: true, reason: "RBAC: allowed by the stand-in garden's rules" } : { allowed: false },
    };
  }
}

function methodNotAllowed(): ApiError {
  return new ApiError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {});
}

function discovery(): Json {
  const verbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: API_VERSION,
    resources: [
      ...(Object.entries(KINDS) as [Kind, KindInfo][]).map(([kind, info]) => ({
        name: info.plural,
        singularName: kind.toLowerCase(),
        namespaced: info.namespaced,
        kind,
        verbs,
      })),
      { name: "shoots/binding", singularName: "", namespaced: true, kind: "Shoot", verbs: ["get", "patch", "update"] },
    ],
  };
}

/**
 * metadata.managedFields of about `bytes` bytes of JSON, shaped as a real API server writes them:
 * one entry per field manager, each a FieldsV1 tree of the fields it owns.
 */
export function managedFieldsOfSize(bytes: number): Json[] {
  const entries: Json[] = [];
  let size = 2;
  for (let manager = 0; size < bytes; manager++) {
    const fields: Record<string, Json> = {};
    for (let i = 0; i < 40; i++) fields[`f:field-${manager}-${i}`] = { "f:value": {}, "f:lastTransitionTime": {} };
    const entry = {
      manager: `gardenlet-${manager}`,
      operation: "Update",
      apiVersion: "core.gardener.cloud/v1beta1",
      time: "2026-11-20T02:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:status": fields },
      subresource: "status",
    };
    size += JSON.stringify(entry).length + 1;
    entries.push(entry);
  }
  return entries;
}

export async function startStandInGarden(
  options: {
    bookmarkIntervalMs?: number;
    /** Every object written gets metadata.managedFields of about this many bytes (default none). */
    managedFieldsBytes?: number;
  } = {},
): Promise<StandInGarden> {
  const garden = new Garden(options.bookmarkIntervalMs ?? 1000, options.managedFieldsBytes);
  await garden.listen();
  return garden;
}
