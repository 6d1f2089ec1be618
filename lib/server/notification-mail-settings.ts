// The e-mail channel's settings, taken from the configuration (lib/config/settings.ts, group
// "mail"): how to reach the SMTP server as nodemailer takes it, the sender, the digest's moment
// and the public URL for links. A value of its own, so a test hands the channel a server on
// loopback without touching the process's configuration.
import type { Config } from "../config/load-config.ts";

// Waits short enough that a silent server costs a delivery attempt, not the claim: nodemailer's
// defaults (two minutes to connect, ten of silence) would outlast it.
const CONNECTION_TIMEOUT_MS = 15_000;
const GREETING_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;

/** How to reach the SMTP server: nodemailer's options (a URL, or host and port). */
export type SmtpTransport =
  | { readonly url: string }
  | {
      readonly host: string;
      readonly port: number;
      readonly secure: boolean;
      readonly auth?: { readonly user: string; readonly pass: string };
    };

export interface MailSettings {
  /** Undefined: no SMTP server is set, and e-mail deliveries fail saying so. */
  readonly smtp?: SmtpTransport;
  readonly from?: string;
  /** "07:00", in digestZone. */
  readonly digestTime: string;
  readonly digestZone: string;
  readonly publicUrl?: string;
  /** How many events of each kind a digest lists before "and K more". */
  readonly digestPerKind?: number;
  /** Limits of one SMTP conversation, in milliseconds (tests shorten them). */
  readonly timeouts?: { readonly connection: number; readonly greeting: number; readonly socket: number };
}

/** What a delivery records when no SMTP server is set (the API shows it as the delivery's error). */
export const EMAIL_NOT_CONFIGURED = "e-mail is not configured (ALMANAC_SMTP_URL)";

export const DEFAULT_MAIL_TIMEOUTS = {
  connection: CONNECTION_TIMEOUT_MS,
  greeting: GREETING_TIMEOUT_MS,
  socket: SOCKET_TIMEOUT_MS,
} as const;

/** The channel's settings from the configuration (already checked: a sender whenever a server is set). */
export function mailSettings(config: Config): MailSettings {
  const { smtpUrl, smtpHost, smtpPort, smtpUser, smtpPassword, smtpSecure, from, digestTime, digestZone } = config.mail;
  const common = { from, digestTime, digestZone, publicUrl: config.server.publicUrl };
  if (smtpUrl) return { ...common, smtp: { url: smtpUrl } };
  if (!smtpHost) return common;
  const secure = smtpSecure ?? smtpPort === 465;
  const port = smtpPort ?? (secure ? 465 : 587);
  const auth = smtpUser && smtpPassword ? { user: smtpUser, pass: smtpPassword } : undefined;
  return { ...common, smtp: { host: smtpHost, port, secure, ...(auth ? { auth } : {}) } };
}

/**
 * Why e-mail cannot go out now, or undefined when an SMTP server is set: for the API's answer
 * about an e-mail subscription, which is kept all the same (the server may be set up later).
 */
export function emailNotConfigured(config: Config): string | undefined {
  return mailSettings(config).smtp ? undefined : EMAIL_NOT_CONFIGURED;
}
