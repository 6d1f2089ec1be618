// The growing delay of password sign-ins (lib/engine/sign-in-delay.ts) and the aggregation of
// their failures in the audit log: better-auth's own limit (ten tries a minute per client address)
// bounds how fast one client guesses; this bounds how fast anyone guesses one account, without a
// wall a stranger could put up in front of its owner. A failure is audited at the first, the
// tenth, the twentieth... in an hour, with the count, rather than once per try.
import * as z from "zod";
import type { Db } from "../db/client.ts";
import { FORGET_AFTER_MS, PER_ACCOUNT, PER_ADDRESS, waitBeforeTry } from "../engine/sign-in-delay.ts";
import { plainText } from "../engine/plain-text.ts";
import { countFailure, failureCounts, forgetFailures } from "../store/sign-in-failures.ts";
import { addressBucket } from "./client-address.ts";

/** The account a sign-in names, as the audit log records it: "(invalid)" for what is no email address. */
export function typedAccount(email: unknown): string {
  if (email === undefined || email === null || email === "") return "(none)";
  if (typeof email !== "string" || email.length > 254 || !z.email().safeParse(email).success) return "(invalid)";
  return plainText(email).toLowerCase();
}

const isAccount = (account: string) => !account.startsWith("(");

const keysOf = (account: string, address: string | undefined) => ({
  account: `account:${account}`,
  address: `address:${account}|${address === undefined ? "(unknown)" : addressBucket(address)}`,
});

/** How many ms this sign-in must still wait; 0 when it may be checked now. */
export async function signInWait(db: Db, account: string, address: string | undefined, now: number): Promise<number> {
  if (!isAccount(account)) return 0;
  const keys = keysOf(account, address);
  const counts = await failureCounts(db, [keys.account, keys.address]);
  const own = counts.get(keys.address);
  // The account's wait holds back only addresses that failed at it themselves: strangers failing
  // from many addresses slow each other down, never the owner trying from a clean one.
  const failedHere = own !== undefined && now - own.lastFailureAt < FORGET_AFTER_MS;
  return Math.max(
    waitBeforeTry(own, PER_ADDRESS, now),
    failedHere ? waitBeforeTry(counts.get(keys.account), PER_ACCOUNT, now) : 0,
  );
}

/** Counts a failure; returns the account's failures in the last hour when the log should say so, else undefined. */
export async function signInFailed(
  db: Db,
  account: string,
  address: string | undefined,
  now: number,
): Promise<number | undefined> {
  const keys = keysOf(account, address);
  const counts = await countFailure(db, [keys.account, keys.address], now);
  const failures = counts.get(keys.account) ?? 1;
  return failures === 1 || failures % 10 === 0 ? failures : undefined;
}

/** The account's owner got in: the failures before are forgotten. */
export async function signInSucceeded(db: Db, account: string, address: string | undefined): Promise<void> {
  const keys = keysOf(account, address);
  await forgetFailures(db, [keys.account, keys.address]);
}
