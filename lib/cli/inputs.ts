// Loads the CLI's -f inputs and sorts them into cloud profiles and shoots.
import { readFileSync } from "node:fs";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { cloudProfileNameOf } from "../gardener/types.ts";
import { InputError, readObjects, type SourcedObject } from "../gardener/read-objects.ts";
import { CliError } from "./cli-error.ts";

export interface Inputs {
  readonly objects: readonly SourcedObject[];
  readonly shoots: readonly (SourcedObject & { object: Shoot })[];
  readonly profiles: ReadonlyMap<string, CloudProfile>;
}

function readSource(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (e as Error).message;
    throw new CliError(`${file === "-" ? "standard input" : file}: cannot read: ${why}`);
  }
}

function describe(o: SourcedObject): string {
  return `${o.file}:${o.line}`;
}

function requireShape(o: SourcedObject): void {
  const obj = o.object as { metadata?: { name?: unknown }; spec?: unknown; kind?: string };
  if (!obj.metadata || typeof obj.metadata.name !== "string") {
    throw new CliError(`${describe(o)}: ${obj.kind} has no metadata.name`);
  }
  if (!obj.spec || typeof obj.spec !== "object") {
    throw new CliError(`${describe(o)}: ${obj.kind} "${obj.metadata.name}" has no spec`);
  }
  if (obj.kind === "Shoot" && typeof (obj.spec as Shoot["spec"]).kubernetes?.version !== "string") {
    throw new CliError(`${describe(o)}: Shoot "${obj.metadata.name}" has no spec.kubernetes.version`);
  }
}

export function loadInputs(files: readonly string[]): Inputs {
  if (files.length === 0) throw new CliError("no input: give at least one -f FILE (use - for standard input)");
  const objects: SourcedObject[] = [];
  for (const file of files) {
    try {
      objects.push(...readObjects(readSource(file), file === "-" ? "<stdin>" : file));
    } catch (e) {
      if (e instanceof InputError) throw new CliError(e.message);
      throw e;
    }
  }
  const profiles = new Map<string, CloudProfile>();
  const shoots: (SourcedObject & { object: Shoot })[] = [];
  for (const o of objects) {
    const kind = o.object.kind;
    if (kind === "CloudProfile" || kind === "NamespacedCloudProfile") {
      requireShape(o);
      const profile = o.object as unknown as CloudProfile;
      profiles.set(profile.metadata.name, profile);
    } else if (kind === "Shoot") {
      requireShape(o);
      shoots.push(o as SourcedObject & { object: Shoot });
    }
  }
  return { objects, shoots, profiles };
}

/** The shoot's cloud profile, or a CliError naming the file, the shoot and the missing profile. */
export function profileFor(inputs: Inputs, shoot: SourcedObject & { object: Shoot }): CloudProfile {
  const name = cloudProfileNameOf(shoot.object);
  const label = `${shoot.object.metadata.namespace ? `${shoot.object.metadata.namespace}/` : ""}${shoot.object.metadata.name}`;
  if (!name)
    throw new CliError(
      `${describe(shoot)}: Shoot ${label} names no cloud profile (spec.cloudProfile.name or spec.cloudProfileName)`,
    );
  const profile = inputs.profiles.get(name);
  if (!profile) {
    throw new CliError(
      `${describe(shoot)}: Shoot ${label} refers to cloud profile "${name}", which is not in the input; add its YAML with another -f`,
    );
  }
  return profile;
}

/** Parses an RFC 3339 flag value to epoch ms. */
export function parseInstant(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
  const m = rfc3339.exec(value);
  const ms = Date.parse(value);
  // Date.parse rolls impossible fields over (2025-02-30 becomes March 2, 24:00 the next day);
  // Go's time.Parse, and so Gardener, rejects them: check every field's range first.
  const fields = (m ?? []).slice(1).map((g) => (g === undefined ? 0 : Number(g)));
  const [year, month, day, hour, minute, second, , offsetHour, offsetMinute] = fields;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  const inRange =
    m !== null &&
    daysInMonth !== undefined &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHour <= 23 &&
    offsetMinute <= 59;
  if (!inRange || Number.isNaN(ms)) {
    throw new CliError(`--${flag}: "${value}" is not an RFC 3339 time such as 2026-11-22T22:00:00Z`);
  }
  return ms;
}
