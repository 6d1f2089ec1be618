// A cloud profile read from a live garden, checked against the lifecycle rules of Gardener's
// CloudProfile validation (`unavailable` cannot be declared, stages in order, start times not
// decreasing, only the leading stage without a start, no lifecycle beside a legacy field). Only
// these: the profile's other rules are Gardener's business, some of them judged on create alone.
// The garden's API server validated the profile when it was written, so a problem here means it
// was written under older rules; Almanac still reads it as Gardener does, and only says so.
import type { CloudProfile } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";
import { validateCloudProfile } from "./validate-cloud-profile.ts";

/** Whether a validation error is one of the lifecycle rules. */
const aboutLifecycle = (e: FieldError) => e.field.includes(".lifecycle") || e.detail.includes("lifecycle");

/** One line naming the profile and each field breaking a lifecycle rule, or undefined when none does. */
export function lifecycleProblemsLine(label: string, profile: CloudProfile, now: number): string | undefined {
  const errors = validateCloudProfile(profile, now).filter(aboutLifecycle);
  if (errors.length === 0) return undefined;
  const listed = errors.map((e) => `${e.field}: ${e.type}${e.detail ? ` (${e.detail})` : ""}`).join("; ");
  return `${label} does not pass Gardener's lifecycle validation, read as it is: ${listed}`;
}
