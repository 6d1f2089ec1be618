// HTTP Strict Transport Security: when Almanac is served over https (ALMANAC_PUBLIC_URL says so),
// browsers are told to come back only over https for a year, so a network attacker cannot strip
// TLS from a later visit. Sent by the web server in front of Next (scripts/web-worker.mjs), since
// next.config.js's headers are fixed at build time and the public URL is a runtime setting.
import { config } from "../config/load-config.ts";

export const HSTS = "max-age=31536000";

/** The Strict-Transport-Security value for this deployment, or undefined over plain http. */
export const strictTransport = (publicUrl = config().server.publicUrl): string | undefined =>
  publicUrl?.toLowerCase().startsWith("https://") ? HSTS : undefined;
