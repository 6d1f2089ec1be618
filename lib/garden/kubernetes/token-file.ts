// A bearer token kept in a file (a kubeconfig user's `tokenFile`, or the pod's service-account
// token): Gardener's token-requestor and the kubelet rotate such files on disk, so the token is
// read again whenever the file changes (its inode, size or times: a projected volume swaps a
// symlink, a plain file is rewritten), checked with one stat per request. A file that is missing or
// empty makes the call fail with an error naming the file; the mirror retries, readiness says why.
import { readFileSync, statSync } from "node:fs";

/** The token file cannot be used: the message names it and says why. */
export class TokenFileError extends Error {}

export class TokenFile {
  private seen: { readonly stamp: string; readonly token: string } | undefined;

  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** The token the file holds now. Throws TokenFileError when it is missing, unreadable or empty. */
  token(): string {
    let stamp: string;
    try {
      const stat = statSync(this.path);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    } catch (error) {
      throw new TokenFileError(`The garden token file ${this.path} cannot be read (${reason(error)}).`, {
        cause: error,
      });
    }
    if (this.seen?.stamp !== stamp) {
      let text: string;
      try {
        text = readFileSync(this.path, "utf8").trim();
      } catch (error) {
        throw new TokenFileError(`The garden token file ${this.path} cannot be read (${reason(error)}).`, {
          cause: error,
        });
      }
      if (text === "") throw new TokenFileError(`The garden token file ${this.path} is empty.`);
      this.seen = { stamp, token: text };
    }
    return this.seen.token;
  }
}

const reason = (error: unknown) =>
  (error as { code?: unknown })?.code === "ENOENT"
    ? "it does not exist"
    : String((error as { code?: unknown })?.code ?? (error instanceof Error ? error.message : error));
