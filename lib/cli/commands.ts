// The `almanac` subcommands. Each returns the JSON to print and the exit code.
import { forecast } from "../engine/forecast.ts";
import { maintain } from "../engine/maintain.ts";
import { shootStatusLabel } from "../engine/status-label.ts";
import { formatTime } from "../engine/time-format.ts";
import { DAY_MS } from "../engine/time-units.ts";
import {
  effectiveWindow,
  formatBound,
  nextWindowOccurrence,
  parseTimeWindow,
  validateTimeWindow,
  windowContains,
  windowDurationSeconds,
} from "../engine/time-window.ts";
import { validateCloudProfile } from "../engine/validate-cloud-profile.ts";
import { validateShoot } from "../engine/validate-shoot.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { CliError } from "./cli-error.ts";
import { loadInputs, parseInstant, profileFor } from "./inputs.ts";

export interface CommandResult {
  readonly output: unknown;
  readonly exitCode: number;
  readonly warnings?: readonly string[];
}

export function maintainCommand(
  files: string[],
  nowFlag: string | undefined,
  options: { restartControlPlanePods: boolean; restartCoreAddons: boolean },
): CommandResult {
  const now = parseInstant("now", nowFlag, Date.now());
  const inputs = loadInputs(files);
  const warnings: string[] = [];
  const items = inputs.shoots.map((s) => {
    const profile = profileFor(inputs, s);
    const label = `${s.object.metadata.namespace ?? ""}/${s.object.metadata.name}`;
    try {
      const outcome = maintain(s.object, profile, now, options);
      for (const e of outcome.errors) warnings.push(`${s.file}:${s.line}: Shoot ${label}: ${e}`);
      return outcome.shoot;
    } catch (e) {
      // The controller gives up on such a shoot; it stays as it is.
      warnings.push(`${s.file}:${s.line}: Shoot ${label} was not maintained: ${(e as Error).message}`);
      return s.object;
    }
  });
  return { output: { apiVersion: "v1", kind: "List", items }, exitCode: 0, warnings };
}

export function statusCommand(files: string[]): CommandResult {
  const inputs = loadInputs(files);
  const items = inputs.shoots.map((s) => ({
    namespace: s.object.metadata.namespace ?? "",
    name: s.object.metadata.name,
    status: shootStatusLabel(s.object),
  }));
  return { output: { items }, exitCode: 0 };
}

export function validateCommand(
  files: string[],
  nowFlag: string | undefined,
  gateFlag: string | undefined,
): CommandResult {
  const now = parseInstant("now", nowFlag, Date.now());
  const lifecycleGate = parseFeatureGates(gateFlag);
  const inputs = loadInputs(files);
  const items = inputs.objects
    .filter(
      (o) =>
        o.object.kind === "CloudProfile" || o.object.kind === "NamespacedCloudProfile" || o.object.kind === "Shoot",
    )
    .map((o) => {
      const errors =
        o.object.kind === "Shoot"
          ? validateShoot(o.object as unknown as Shoot)
          : validateCloudProfile(o.object as unknown as CloudProfile, now, { lifecycleGate });
      const meta = (o.object.metadata ?? {}) as { name?: string; namespace?: string };
      return {
        kind: o.object.kind,
        name: meta.name ?? "",
        ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
        errors: errors.map(({ type, field, detail }) => ({ type, field, detail })),
      };
    });
  return { output: { items }, exitCode: items.some((i) => i.errors.length > 0) ? 1 : 0 };
}

function parseFeatureGates(flag: string | undefined): boolean {
  let gate = true;
  if (flag === undefined) return gate;
  for (const pair of flag
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, value] = pair.split("=");
    if (name !== "VersionClassificationLifecycle") {
      throw new CliError(`--feature-gates: unknown feature gate "${name}" (known: VersionClassificationLifecycle)`);
    }
    if (value !== "true" && value !== "false") {
      throw new CliError(`--feature-gates: ${name} must be true or false, got "${value ?? ""}"`);
    }
    gate = value === "true";
  }
  return gate;
}

export function windowCommand(
  begin: string | undefined,
  end: string | undefined,
  atFlag: string | undefined,
): CommandResult {
  if (begin === undefined) throw new CliError("window: --begin is required, e.g. --begin 220000+0100");
  if (end === undefined) throw new CliError("window: --end is required, e.g. --end 230000+0100");
  const at = atFlag === undefined ? undefined : parseInstant("at", atFlag, 0);
  const errors = validateTimeWindow({ begin, end }).map(({ type, field, detail }) => ({ type, field, detail }));
  let parsed;
  try {
    parsed = parseTimeWindow(begin, end);
  } catch {
    parsed = undefined;
  }
  const output: Record<string, unknown> = {
    valid: errors.length === 0,
    errors,
    begin: parsed ? formatBound(parsed.begin) : null,
    end: parsed ? formatBound(parsed.end) : null,
    durationSeconds: parsed ? windowDurationSeconds(parsed) : null,
  };
  if (at !== undefined) {
    if (parsed) {
      const effective = effectiveWindow({
        spec: { kubernetes: { version: "" }, maintenance: { timeWindow: { begin, end } } },
      });
      const next = nextWindowOccurrence(effective, at, false);
      output.contains = windowContains(parsed, at);
      output.next = { begin: formatTime(next.begin), end: formatTime(next.end) };
    } else {
      output.contains = null;
      output.next = null;
    }
  }
  return { output, exitCode: 0 };
}

export function forecastCommand(
  files: string[],
  fromFlag: string | undefined,
  daysFlag: string | undefined,
): CommandResult {
  const from = parseInstant("from", fromFlag, Date.now());
  const days = daysFlag === undefined ? 30 : Number(daysFlag);
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    throw new CliError(`--days: "${daysFlag}" is not a whole number of days between 1 and 3660`);
  }
  const inputs = loadInputs(files);
  for (const s of inputs.shoots) profileFor(inputs, s); // a missing profile is an input error
  const result = forecast(
    inputs.shoots.map((s) => s.object),
    inputs.profiles,
    from,
    from + days * DAY_MS,
  );
  return { output: { days, ...result }, exitCode: 0 };
}
