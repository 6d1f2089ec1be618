// Loads the CLI's -f inputs and sorts them into cloud profiles and shoots.
import { readFileSync } from "node:fs";
import type { CloudProfile, NamespacedCloudProfile, Shoot } from "../gardener/types.ts";
import {
  describeProfileReference,
  profileKey,
  profileReferenceOf,
  resolvedNamespacedProfile,
} from "../gardener/profile-reference.ts";
import { InputError, readObjects, type SourcedObject } from "../gardener/read-objects.ts";
import { CliError } from "./cli-error.ts";

export interface Inputs {
  readonly objects: readonly SourcedObject[];
  readonly shoots: readonly (SourcedObject & { object: Shoot })[];
  /** By profileKey: CloudProfiles by name, resolved NamespacedCloudProfiles by "namespace/name". */
  readonly profiles: ReadonlyMap<string, CloudProfile>;
  /** The keys of NamespacedCloudProfiles given without Gardener's status.cloudProfileSpec. */
  readonly unresolved: ReadonlySet<string>;
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
  const unresolved = new Set<string>();
  const shoots: (SourcedObject & { object: Shoot })[] = [];
  for (const o of objects) {
    const kind = o.object.kind;
    if (kind === "CloudProfile") {
      requireShape(o);
      const profile = o.object as unknown as CloudProfile;
      profiles.set(profile.metadata.name, profile);
    } else if (kind === "NamespacedCloudProfile") {
      // Read as Gardener reads it: through the merged spec its controller wrote to the status.
      requireShape(o);
      const namespaced = o.object as unknown as NamespacedCloudProfile;
      const key = `${namespaced.metadata.namespace ?? ""}/${namespaced.metadata.name}`;
      const resolved = resolvedNamespacedProfile(namespaced);
      if (resolved) profiles.set(key, resolved);
      else unresolved.add(key);
    } else if (kind === "Shoot") {
      requireShape(o);
      shoots.push(o as SourcedObject & { object: Shoot });
    }
  }
  return { objects, shoots, profiles, unresolved };
}

/** The shoot's cloud profile, or a CliError naming the file, the shoot and the missing profile. */
export function profileFor(inputs: Inputs, shoot: SourcedObject & { object: Shoot }): CloudProfile {
  const reference = profileReferenceOf(shoot.object);
  const label = `${shoot.object.metadata.namespace ? `${shoot.object.metadata.namespace}/` : ""}${shoot.object.metadata.name}`;
  if (!reference)
    throw new CliError(
      `${describe(shoot)}: Shoot ${label} names no cloud profile (spec.cloudProfile.name or spec.cloudProfileName)`,
    );
  const key = profileKey(reference);
  const profile = inputs.profiles.get(key);
  if (!profile) {
    throw new CliError(
      inputs.unresolved.has(key)
        ? `${describe(shoot)}: Shoot ${label} refers to ${describeProfileReference(reference)}, which has no status.cloudProfileSpec yet (Gardener writes it); give the object as the garden has it`
        : `${describe(shoot)}: Shoot ${label} refers to ${describeProfileReference(reference)}, which is not in the input; add its YAML with another -f`,
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
