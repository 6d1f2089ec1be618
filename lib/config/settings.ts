// Every setting of Almanac, declared once: the variable, its kind of value, its default and what it
// means, in groups. lib/config/load-config.ts reads them all from the environment at start and
// hands out one typed object; docs/configuration.md is generated from this table
// (`npm run docs:config`). Each name and meaning is a contract with operators: keep them.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_RETRY_DURATION_MS } from "../engine/shoot-operation.ts";
import { DEFAULT_RETRY_JITTER_PERIOD_MS, DEFAULT_RETRY_PERIOD_MS } from "../engine/shoot-retry.ts";
import { parseTolerationEntry } from "../engine/toleration-validation.ts";
import { parseCidrRange } from "./cidr-ranges.ts";
import { parseGroupRole } from "./group-role.ts";
import { setting } from "./setting.ts";
import {
  decimal,
  duration,
  entryList,
  onOff,
  oneOf,
  type SettingType,
  text,
  url,
  wholeNumber,
  wordList,
} from "./setting-types.ts";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const GARDEN_IDENTITY_MODES = ["oidc", "read-only", "impersonation"] as const;

// RFC 9110's token: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers that carry something else already; naming one of them would be a mistake.
const TAKEN = new Set(["authorization", "cookie", "host", "x-almanac-proxy-user", "x-almanac-proxy-groups"]);

/** A request header's name, in lower case as Node's `request.headers` has it. */
const headerName: SettingType<string> = {
  expected: "a header name that Almanac does not read for itself",
  schema: z
    .string()
    .regex(HEADER_NAME)
    .transform((name, ctx) => {
      if (!TAKEN.has(name.toLowerCase())) return name.toLowerCase();
      ctx.addIssue({ code: "custom", message: "it names a header Almanac reads for itself" });
      return z.NEVER;
    }),
};

const CIDR_LIST = "IP addresses and CIDR ranges (IPv4 or IPv6), comma-separated, such as 10.0.0.0/8, fd00::1";
// Asked only when the default is needed (npm start, the worker): Next's bundle of this module may
// have no import.meta.dirname, and its web processes run in the project folder anyway.
const projectRoot = () => (import.meta.dirname ? path.resolve(import.meta.dirname, "../..") : process.cwd());

const ms = (min = 0) => duration("milliseconds", { min });

export const SETTINGS = {
  server: {
    port: setting("PORT", wholeNumber({ min: 1, max: 65_535 }), {
      default: "3000",
      meaning: "The port the web server listens on.",
    }),
    webWorkers: setting("ALMANAC_WEB_WORKERS", wholeNumber({ min: 1, max: 64 }), {
      default: { text: "one per CPU, at most 4", value: () => Math.min(os.availableParallelism(), 4) },
      meaning: "How many web processes `npm start` runs (they share the port).",
    }),
    publicUrl: setting("ALMANAC_PUBLIC_URL", url({ protocols: ["http:", "https:"] }), {
      meaning:
        "The address people reach Almanac at: links in calendar feeds and the first-admin link, the OIDC redirect; https:// turns on Strict-Transport-Security.",
    }),
    // A web process rests at 160-240 MB (bench:scale): a smaller cap would leave it no room to serve.
    webHeapMb: setting("ALMANAC_WEB_HEAP_MB", wholeNumber({ min: 192, unit: "megabytes" }), {
      meaning: "The heap cap of each web process; unset: 320, unless NODE_OPTIONS sets --max-old-space-size.",
    }),
    dbTimeoutMs: setting("ALMANAC_DB_TIMEOUT_MS", wholeNumber({ min: 0, unit: "milliseconds" }), {
      default: "5000",
      meaning: "How long a web process waits for a database connection or query before answering 503 (0: no limit).",
    }),
    answerCache: setting("ALMANAC_ANSWER_CACHE", onOff(), {
      default: "on",
      meaning: "Whether answers are kept while the garden does not change (off: every request is computed afresh).",
    }),
    dashboardUrl: setting("ALMANAC_DASHBOARD_URL", url({ protocols: ["http:", "https:"] }), {
      meaning: "The Gardener dashboard's address; the shoot page then links each cluster to its page there.",
    }),
    // A freeze stops every bulk action and update run stage it covers: one left open by mistake
    // for a year would stop them all quietly, so its length has a ceiling (split a longer one).
    freezeMaxDays: setting("ALMANAC_FREEZE_MAX_DAYS", wholeNumber({ min: 1, max: 366, unit: "days" }), {
      default: "90",
      meaning: "The longest freeze period (POST /api/v1/freezes refuses a longer one with 422 naming `end`).",
    }),
  },
  data: {
    dataDir: setting(
      "ALMANAC_DATA_DIR",
      { expected: "a folder's path", schema: z.string().transform((dir) => path.resolve(dir)) },
      {
        default: { text: ".almanac in the project", value: () => path.join(projectRoot(), ".almanac") },
        meaning: "Where the embedded PostgreSQL keeps its data (unless DATABASE_URL is set), and the first-admin link.",
      },
    ),
    databaseUrl: setting("DATABASE_URL", url({ protocols: ["postgres:", "postgresql:"] }), {
      meaning: "An external PostgreSQL server to use instead of the embedded one.",
    }),
  },
  garden: {
    kubeconfig: setting("GARDEN_KUBECONFIG", text({ expected: "a kubeconfig file's path" }), {
      meaning: "A live Gardener landscape to show, through this kubeconfig (unset: the simulated garden).",
    }),
    context: setting("GARDEN_CONTEXT", text({ expected: "a context of GARDEN_KUBECONFIG" }), {
      meaning: "The kubeconfig's context to use (default: its current context).",
    }),
    mode: setting("ALMANAC_GARDEN", oneOf(["in-cluster", "embedded"]), {
      meaning:
        "in-cluster: the live garden through the pod's service account; embedded: the simulated garden (the default without GARDEN_KUBECONFIG).",
    }),
    identity: setting("ALMANAC_GARDEN_IDENTITY", oneOf(GARDEN_IDENTITY_MODES), {
      meaning:
        "How people's changes reach a live garden: oidc (their own ID token; the default with company sign-in), read-only (the default without it) or impersonation.",
    }),
    leaseMs: setting("ALMANAC_GARDEN_LEASE_SECONDS", duration("seconds", { min: 1, max: 600 }), {
      default: "15",
      meaning: "How long a silent mirror keeps the lease on a live garden, so about how long a takeover takes.",
    }),
    // The mirror holds two list pages and two batches of up to 500 objects (~8 MB each) at once.
    mirrorHeapMb: setting("ALMANAC_MIRROR_HEAP_MB", wholeNumber({ min: 128, unit: "megabytes" }), {
      meaning:
        "The heap cap of the process that mirrors a live garden; unset: 256, unless NODE_OPTIONS sets --max-old-space-size.",
    }),
  },
  signIn: {
    adminToken: setting("ALMANAC_ADMIN_TOKEN", text({ expected: "at least 16 characters", minLength: 16 }), {
      secret: true,
      meaning: "A token that acts as an admin's API token, for automation.",
    }),
    sessionMaxMs: setting("ALMANAC_SESSION_MAX_HOURS", duration("hours", { min: 1, max: 720 }), {
      default: "12",
      meaning: "How long a sign-in lasts at most, however much it is used.",
    }),
    groupRoles: setting(
      "ALMANAC_GROUP_ROLES",
      entryList({
        expected: "entries group=role or group=role:project, separated by ; or new lines",
        separator: /[;\n]/,
        entry: parseGroupRole,
      }),
      {
        default: "",
        meaning: "Roles that come with a group of the company's identity (an OIDC groups claim or a proxy's header).",
      },
    ),
    oidcIssuer: setting("ALMANAC_OIDC_ISSUER", url({ protocols: ["https:"], httpsOrLoopback: true }), {
      meaning: "Company sign-in (OpenID Connect): the issuer's URL; its /.well-known/openid-configuration is read.",
    }),
    oidcClientId: setting("ALMANAC_OIDC_CLIENT_ID", text({ expected: "the client's id" }), {
      meaning: "The client Almanac is registered as at the issuer (required with ALMANAC_OIDC_ISSUER).",
    }),
    oidcClientSecret: setting("ALMANAC_OIDC_CLIENT_SECRET", text({ expected: "the client's secret" }), {
      secret: true,
      meaning: "That client's secret (required with ALMANAC_OIDC_ISSUER).",
    }),
    oidcGroupsClaim: setting("ALMANAC_OIDC_GROUPS_CLAIM", text({ expected: "a claim's name" }), {
      default: "groups",
      meaning: "The ID token's claim that lists a person's groups.",
    }),
    oidcScopes: setting("ALMANAC_OIDC_SCOPES", wordList('scopes separated by spaces or commas, "openid" among them'), {
      default: "openid email profile",
      meaning: "The scopes asked for at sign-in.",
    }),
    oidcName: setting("ALMANAC_OIDC_NAME", text({ expected: "a name" }), {
      default: "company sign-in",
      meaning: "What the sign-in button calls the provider.",
    }),
    trustedProxyAddresses: setting(
      "ALMANAC_TRUSTED_PROXY_ADDRESSES",
      entryList({
        expected: `${CIDR_LIST} (not /0)`,
        separator: ",",
        refuseEmpty: true,
        entry: (entry) => parseCidrRange(entry, "a /0 range would believe every client; list the proxy's addresses"),
      }),
      {
        default: "",
        meaning:
          "The authenticating reverse proxy's own addresses: only a request from one of them may name its user in a header.",
      },
    ),
    trustedProxyUserHeader: setting("ALMANAC_TRUSTED_PROXY_USER_HEADER", headerName, {
      default: "X-Remote-User",
      meaning: "The trusted proxy's header that names the person.",
    }),
    trustedProxyGroupsHeader: setting("ALMANAC_TRUSTED_PROXY_GROUPS_HEADER", headerName, {
      default: "X-Remote-Group",
      meaning: "The trusted proxy's header that lists the person's groups.",
    }),
  },
  observability: {
    logLevel: setting("ALMANAC_LOG_LEVEL", oneOf(LOG_LEVELS), {
      default: "info",
      meaning: "The least severe log lines written.",
    }),
    logFormat: setting("ALMANAC_LOG_FORMAT", oneOf(["json", "pretty"]), {
      meaning: "How log lines are written (unset: pretty at a terminal and in `next dev`, JSON lines elsewhere).",
    }),
    metricsAllow: setting(
      "ALMANAC_METRICS_ALLOW",
      entryList({
        expected: `${CIDR_LIST} (not /0)`,
        separator: ",",
        refuseEmpty: true,
        entry: (e) => parseCidrRange(e),
      }),
      { default: "", meaning: "Who may read /metrics without an admin's credentials (a Prometheus server)." },
    ),
  },
  jobs: {
    jobExpireSeconds: setting("ALMANAC_JOB_EXPIRE_SECONDS", wholeNumber({ min: 1, unit: "seconds" }), {
      default: "60",
      meaning: "How long a job may run before another process takes it over (a worker killed mid-run).",
    }),
    pollSeconds: setting("ALMANAC_POLL_SECONDS", decimal({ min: 0.5, unit: "seconds" }), {
      default: "1",
      meaning: "How often workers look for due jobs.",
    }),
    // An update run's health gate (lib/engine/update-run-progress.ts) cannot know how long a
    // cluster's reconcile takes (a real one that rolls nodes: minutes; the simulated garden's: seconds).
    updateRunGateGraceSeconds: setting(
      "ALMANAC_UPDATE_RUN_GATE_GRACE_SECONDS",
      wholeNumber({ min: 0, max: 7 * 86_400, unit: "seconds" }),
      {
        default: "1800",
        meaning:
          "How long an update run's health gate waits for a cluster to become healthy, beyond twice healthySeconds and the stage's acting time, before it pauses the run naming the clusters that hold it.",
      },
    ),
    forecastRefreshEveryMs: setting("ALMANAC_FORECAST_REFRESH_SECONDS", duration("seconds", { min: 1 }), {
      default: "300",
      meaning: "How often a pass of the forecast facts' refresh is asked for.",
    }),
    forecastRefreshBatch: setting("ALMANAC_FORECAST_REFRESH_BATCH", wholeNumber({ min: 1 }), {
      default: "1000",
      meaning: "How many shoots' forecast facts one refresh job computes.",
    }),
    // An update run's preview (lib/server/update-run-preview.ts) cannot know how long a cluster's
    // update takes (a real reconcile that rolls nodes: minutes; the simulated garden's: seconds).
    updateRunActingSeconds: setting(
      "ALMANAC_UPDATE_RUN_ACTING_SECONDS",
      wholeNumber({ min: 0, max: 86_400, unit: "seconds" }),
      {
        default: "600",
        meaning:
          "How long an update run's preview expects one cluster's update to take (its reconcile), for each stage's and the run's expected end.",
      },
    ),
  },
  simulation: {
    gardenlet: setting("ALMANAC_GARDENLET", onOff(), {
      default: "on",
      meaning: "Whether this process runs the simulated gardenlet (off: another worker does).",
    }),
    reconcileStepMs: setting("ALMANAC_RECONCILE_STEP_MS", ms(), {
      default: "2000",
      meaning: "How long one of the five steps of a simulated reconcile takes.",
    }),
    faultRate: setting("ALMANAC_FAULT_RATE", decimal({ min: 0, max: 1 }), {
      default: "0.05",
      meaning: "Share of simulated reconcile attempts that hit a fault.",
    }),
    faultSeed: setting("ALMANAC_FAULT_SEED", wholeNumber({ min: 0 }), {
      default: "1",
      meaning: "The seed of the generator that draws faults and retry jitter (so runs repeat).",
    }),
    reconcileRetryMs: setting("ALMANAC_RECONCILE_RETRY_MS", ms(), {
      default: "15000",
      meaning: "Wait before retrying a reconcile that ended in a retryable error.",
    }),
    retryDurationMs: setting("ALMANAC_RETRY_DURATION_MS", ms(), {
      default: String(DEFAULT_RETRY_DURATION_MS),
      meaning:
        "The gardenlet's retry duration: an operation still failing this long after its retries began turns Failed.",
    }),
    shootRetryPeriodMs: setting("ALMANAC_SHOOT_RETRY_PERIOD_MS", ms(), {
      default: String(DEFAULT_RETRY_PERIOD_MS),
      meaning: "The shoot retry controller retries a rate-limited Failed shoot this long after.",
    }),
    shootRetryJitterMs: setting("ALMANAC_SHOOT_RETRY_JITTER_MS", ms(), {
      default: String(DEFAULT_RETRY_JITTER_PERIOD_MS),
      meaning: "... plus at most this much at random.",
    }),
    conditionThresholdMs: setting("ALMANAC_CONDITION_THRESHOLD_MS", ms(), {
      default: "60000",
      meaning: "How long a failing health check shows Progressing before it turns False.",
    }),
    migrationStepMs: setting("ALMANAC_MIGRATION_STEP_MS", ms(), {
      default: "3000",
      meaning: "How long one simulated control plane migration step takes.",
    }),
    migrationFaultRate: setting("ALMANAC_MIGRATION_FAULT_RATE", decimal({ min: 0, max: 1 }), {
      default: "0.1",
      meaning: "Share of migration task attempts that fail (and are retried with backoff).",
    }),
    migrationRetryMs: setting("ALMANAC_MIGRATION_RETRY_MS", ms(), {
      default: "43200000",
      meaning: "An error this long after a Migrate or Restore operation started turns it Failed.",
    }),
    migrationBackoffMs: setting("ALMANAC_MIGRATION_BACKOFF_MS", ms(), {
      default: "5000",
      meaning: "First wait before retrying a failed migration step (doubles, up to five minutes).",
    }),
    cleanupSecondMs: setting("ALMANAC_CLEANUP_SECOND_MS", ms(), {
      default: "1000",
      meaning: "How long one second of a deletion's grace periods lasts (1000: real time).",
    }),
    nodeRollStepMs: setting("ALMANAC_NODE_ROLL_STEP_MS", ms(), {
      default: "2000",
      meaning:
        "How long one tick of a simulated worker pool roll takes (nodes join, become ready, drain); 0 rolls at once.",
    }),
    nodeRollHoldTimeoutMs: setting("ALMANAC_NODE_ROLL_HOLD_TIMEOUT_MS", ms(), {
      default: "60000",
      meaning:
        "How long a simulated roll may be held by a node-critical component that does not become ready before the reconcile ends in error.",
    }),
    // The simulated gardener-apiserver's admission config of ShootTolerationRestriction: set by
    // whoever runs the garden, as Gardener's operators set it, so a setting and not a table.
    tolerationWhitelist: setting(
      "ALMANAC_TOLERATION_WHITELIST",
      entryList({
        expected: "tolerations key or key=value, comma-separated",
        separator: ",",
        entry: parseTolerationEntry,
      }),
      {
        default: "",
        meaning:
          "The global toleration whitelist of the simulated garden's ShootTolerationRestriction, besides each project's own (a key alone allows any value).",
      },
    ),
  },
  // Issue 30's notifications: how webhooks are sent and how long a delivery is retried.
  notifications: {
    webhookAllowPrivate: setting("ALMANAC_WEBHOOK_ALLOW_PRIVATE", onOff(), {
      default: "false",
      meaning:
        "Whether webhooks may target loopback, private, link-local, unspecified or multicast addresses (refused by default, at creation and at each delivery's connection: a receiver inside the network is a request forger's way in).",
    }),
    webhookTimeoutMs: setting("ALMANAC_WEBHOOK_TIMEOUT_SECONDS", duration("seconds", { min: 1, max: 300 }), {
      default: "10",
      meaning:
        "How long one webhook attempt may take, connection and answer together, before it counts as failed and is retried.",
    }),
    maxAttempts: setting("ALMANAC_NOTIFY_MAX_ATTEMPTS", wholeNumber({ min: 1, max: 50 }), {
      default: "8",
      meaning:
        "How many times a notification is tried before it is given up (Failed); retries wait 30 s, 2 min, 10 min, 1 h, then 2 h between tries.",
    }),
  },
  tests: {
    crashAfterTransitions: setting("ALMANAC_TEST_CRASH_AFTER_TRANSITIONS", wholeNumber({ min: 0 }), {
      default: "0",
      audience: "tests",
      meaning: "The process kills itself right after committing its N-th migration transition (0: never).",
    }),
  },
  node: {
    nodeOptions: setting("NODE_OPTIONS", text({ expected: "Node's options" }), {
      meaning: "Node's own; Almanac only looks whether it sets --max-old-space-size or --max-semi-space-size.",
    }),
    nodeEnv: setting("NODE_ENV", text({ expected: "development, production or test" }), {
      meaning: "Set by Next; development makes log lines pretty by default.",
    }),
  },
} as const;

/** What each group is about, for docs/configuration.md. */
export const GROUP_TITLES: Record<keyof typeof SETTINGS, string> = {
  server: "Web server",
  data: "Data",
  garden: "Garden",
  signIn: "Sign-in and access",
  observability: "Logs and metrics",
  jobs: "Background work",
  simulation: "The simulated garden",
  notifications: "Notifications",
  tests: "Tests only",
  node: "Read, not Almanac's own",
};
