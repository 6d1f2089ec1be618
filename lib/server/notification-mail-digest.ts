// When an e-mail subscription's daily digest goes out: every day at ALMANAC_NOTIFY_DIGEST_TIME in
// ALMANAC_NOTIFY_DIGEST_ZONE. croner walks the zone's calendar, so daylight saving is followed the
// way cron does it: a time the spring change skips goes out at the first minute after the gap
// (02:30 on a day without 02:00-03:00 is 03:00), a time the autumn change repeats goes out once, at
// the first of the two.
import { Cron } from "croner";

const crons = new Map<string, Cron>();

function dailyCron(time: string, zone: string): Cron {
  const key = `${time} ${zone}`;
  let cron = crons.get(key);
  if (!cron) {
    const [hour, minute] = time.split(":").map(Number);
    // No callback: a pattern to ask, not a timer.
    cron = new Cron(`${minute} ${hour} * * *`, { timezone: zone });
    crons.set(key, cron);
  }
  return cron;
}

/** The first digest moment strictly after `after` (time "07:00", zone an IANA name). */
export function nextDigestMoment(after: Date, time: string, zone: string): Date {
  const next = dailyCron(time, zone).nextRun(after);
  if (!next) throw new Error(`no digest moment after ${after.toISOString()} for ${time} ${zone}`);
  return next;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `at` in `zone`, as 2026-11-28: what a digest's reader calls its day. */
export function dayInZone(at: Date, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(zone, format);
  }
  return format.format(at);
}
