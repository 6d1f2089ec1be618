// PostgreSQL's programs refuse to run as root. Almanac started by root (a container's default, a
// clone under /root) runs them in a user namespace of their own instead: inside it they see an
// ordinary account, so they agree to start, while to the host's kernel they are still root, so
// they reach binaries and data in folders only root may enter. Nothing on the machine changes:
// no account is created and no folder's permissions are widened.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export const isRoot = (): boolean => process.getuid?.() === 0;

/** The account seen inside the namespace: initdb looks its name up, so it must exist. */
function insideAccount(): { uid: number; gid: number } {
  const entries = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .filter((fields) => fields.length >= 4 && Number(fields[2]) > 0);
  const chosen = entries.find((f) => f[0] === "nobody") ?? entries[0];
  if (!chosen) throw new Error("No account other than root in /etc/passwd to run PostgreSQL under.");
  return { uid: Number(chosen[2]), gid: Number(chosen[3]) };
}

let prefix: readonly string[] | undefined;

/** `unshare` and its arguments, checked once: it needs util-linux 2.38 and user namespaces. */
function namespacePrefix(): readonly string[] {
  if (prefix) return prefix;
  const { uid, gid } = insideAccount();
  const args = ["--user", `--map-user=${uid}`, `--map-group=${gid}`];
  try {
    execFileSync("unshare", [...args, "true"], { stdio: "pipe" });
  } catch (error) {
    const reason = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    throw new Error(
      `Almanac runs as root, and PostgreSQL refuses to. It runs it in a user namespace (unshare --user), ` +
        `which failed here: ${reason}. Run Almanac as an ordinary user, allow user namespaces, or set DATABASE_URL.`,
      { cause: error },
    );
  }
  prefix = ["unshare", ...args];
  return prefix;
}

/** How to spawn a PostgreSQL program: as it is, or as root through a user namespace. */
export function unprivileged(binary: string, args: readonly string[]): { command: string; args: string[] } {
  if (!isRoot()) return { command: binary, args: [...args] };
  const [command, ...rest] = namespacePrefix();
  return { command, args: [...rest, binary, ...args] };
}
