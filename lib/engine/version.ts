// Version parsing and ordering as Gardener does it (Masterminds/semver v3, non-strict mode):
// an optional "v", one to three numeric parts (missing ones count as 0, leading zeros allowed),
// an optional prerelease and optional build metadata. The original string is always kept,
// because Gardener writes the CloudProfile's own spelling back into the shoot.

export interface Version {
  readonly original: string;
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Prerelease identifiers, empty for a release. */
  readonly prerelease: readonly string[];
  /** Build metadata; ignored for ordering but printed by the canonical form. */
  readonly metadata: string;
}

export class VersionParseError extends Error {}

const LOOSE_SEMVER =
  /^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

const cache = new Map<string, Version>();

/** Parses a version like Gardener does; throws VersionParseError with Masterminds' messages. */
export function parseVersion(text: string): Version {
  const cached = cache.get(text);
  if (cached) return cached;
  const m = LOOSE_SEMVER.exec(text);
  if (!m) throw new VersionParseError("Invalid Semantic Version");
  const prerelease = m[4] ? m[4].split(".") : [];
  for (const id of prerelease) {
    if (/^[0-9]+$/.test(id) && id.length > 1 && id.startsWith("0")) {
      throw new VersionParseError("Version segment starts with 0");
    }
  }
  const version: Version = Object.freeze({
    original: text,
    major: Number(m[1]),
    minor: m[2] === undefined ? 0 : Number(m[2]),
    patch: m[3] === undefined ? 0 : Number(m[3]),
    prerelease: Object.freeze(prerelease),
    metadata: m[5] ?? "",
  });
  if (cache.size > 100_000) cache.clear();
  cache.set(text, version);
  return version;
}

export function tryParseVersion(text: string | undefined): Version | undefined {
  if (text === undefined) return undefined;
  try {
    return parseVersion(text);
  } catch {
    return undefined;
  }
}

function comparePrereleaseIdentifier(a: string, b: string): number {
  const aNum = /^[0-9]+$/.test(a);
  const bNum = /^[0-9]+$/.test(b);
  if (aNum && bNum) return Math.sign(Number(a) - Number(b));
  if (aNum) return -1;
  if (bNum) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Semver precedence: -1, 0 or 1. Build metadata is ignored. */
export function compareVersions(a: Version, b: Version): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  const ap = a.prerelease;
  const bp = b.prerelease;
  if (ap.length === 0 && bp.length === 0) return 0;
  if (ap.length === 0) return 1; // a release ranks above its prereleases
  if (bp.length === 0) return -1;
  for (let i = 0; i < Math.max(ap.length, bp.length); i++) {
    if (i >= ap.length) return -1;
    if (i >= bp.length) return 1;
    const c = comparePrereleaseIdentifier(ap[i], bp[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** The canonical form Masterminds prints: MAJOR.MINOR.PATCH[-prerelease][+metadata], no "v". */
export function canonicalVersion(v: Version): string {
  let text = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease.length) text += `-${v.prerelease.join(".")}`;
  if (v.metadata) text += `+${v.metadata}`;
  return text;
}

/**
 * Gardener's normalisation for "same minor" checks and existence checks: drop every "v", then
 * cut at the first "-", "+" or "~". Exported for its unit test.
 */
export function normalizeVersionString(text: string): string {
  const withoutV = text.replaceAll("v", "");
  const cut = withoutV.search(/[-+~]/);
  return cut === -1 ? withoutV : withoutV.slice(0, cut);
}

export function parseNormalized(text: string): Version {
  return parseVersion(normalizeVersionString(text));
}
