// Text that goes to a log or into an error may quote a database URL or a request URL; the
// passwords and tokens in them must not go with it. Pure text work, here in the lowest layer
// that both the server side (lib/http, lib/jobs, lib/server, scripts) and its tests import.

export const REDACTED = "***";

// scheme://user:password@host: the password is everything up to the last "@" before the path
// (a password with an unescaped "@" in it is still hidden whole).
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*):[^\s/?#]*@/gi;

// A name=value pair (a URL's query, a form body, a libpq "key=value" connection string) whose
// name says it is a secret: password, token, secret, API or access key, signature, session,
// credential, an authorization code. Hiding a harmless one (countryCode) costs little.
const SECRET_PARAMETER =
  /(^|[?&;\s])((?:[\w.-]*?(?:passw(?:or)?d|pwd|token|secret|api[_-]?key|access[_-]?key|signature|session|credential|auth|code)[\w.-]*|sig|key))=('[^']*'|[^&#\s]*)/gi;

// An Authorization header's credentials.
const AUTHORIZATION = /\b(Bearer|Basic|Token)\s+[\w.~+/=-]+/g;

// What any of the three needs: URL_PASSWORD an "@", SECRET_PARAMETER an "=", AUTHORIZATION its word.
const MAY_HOLD_SECRET = /[@=]|Bearer|Basic|Token/;

/** `text` with passwords in URLs, secret parameters and Authorization credentials replaced by `***`. */
export function redactSecrets(text: string): string {
  // Each pattern needs one of these (most lines logged have none): one scan instead of three.
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return text
    .replace(URL_PASSWORD, `$1:${REDACTED}@`)
    .replace(SECRET_PARAMETER, `$1$2=${REDACTED}`)
    .replace(AUTHORIZATION, `$1 ${REDACTED}`);
}
