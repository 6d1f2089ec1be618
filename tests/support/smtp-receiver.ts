// A real SMTP server on loopback (smtp-server) that keeps every mail it accepts, read back into
// its headers and its text and HTML parts, and answers DATA as a test scripts it (451, 550, ...).
// No TLS: nodemailer talks plain SMTP to it (STARTTLS is not offered).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  /** Who signed in, when the server asks for it. */
  readonly user?: string;
  readonly raw: string;
  /** Header names in lower case; values unfolded and decoded (RFC 2047). */
  readonly headers: ReadonlyMap<string, string>;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** An answer to DATA: accept, or refuse with a code and words. */
export type DataAnswer = "accept" | { readonly code: number; readonly message: string };

export interface SmtpReceiver {
  readonly port: number;
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** Answers for the next DATA commands, in order; when none is left, mails are accepted. */
  answers: DataAnswer[];
  /** Resolves when `count` mails have been accepted in all. */
  received(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) decoded. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " ")),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < input.length; i++) {
    if (input[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(input[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function splitHead(part: string): { headers: Map<string, string>; body: string } {
  const end = part.indexOf("\r\n\r\n");
  const head = end === -1 ? part : part.slice(0, end);
  const body = end === -1 ? "" : part.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}

/** The text/plain and text/html parts of a message (one level of multipart is what nodemailer writes). */
function parts(headers: Map<string, string>, body: string): { text: string; html: string } {
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith("multipart/") || !boundary) {
    const decoded = decodeBody(headers, body);
    return type.toLowerCase().startsWith("text/html") ? { text: "", html: decoded } : { text: decoded, html: "" };
  }
  const found = { text: "", html: "" };
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith("--")) break;
    const part = splitHead(chunk.replace(/^\r\n/, ""));
    const inner = parts(part.headers, part.body.replace(/\r\n$/, ""));
    found.text ||= inner.text;
    found.html ||= inner.html;
  }
  return found;
}

export function readMail(raw: string, from: string, to: string[], user?: string): ReceivedMail {
  const { headers, body } = splitHead(raw);
  const { text, html } = parts(headers, body);
  return { from, to, user, raw, headers, subject: headers.get("subject") ?? "", text, html };
}

/** Starts the server on 127.0.0.1; `auth` makes it ask for that user and password. */
export async function startSmtpReceiver(
  options: { auth?: { user: string; pass: string } } = {},
): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const receiver = { answers: [] as DataAnswer[] };
  const server = new SMTPServer({
    disabledCommands: options.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !options.auth,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass)
        return callback(null, { user: auth.username });
      callback(Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const answer = receiver.answers.shift() ?? "accept";
        if (answer !== "accept")
          return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push(readMail(Buffer.concat(chunks).toString("utf8"), from, to, session.user as string | undefined));
        for (const wake of waiters.splice(0)) wake();
        callback(null, "Ok: queued");
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async received(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`${mails.length} of ${count} mails arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
