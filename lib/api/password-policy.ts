// What a password must be, wherever one is set (the first admin, an account an admin makes, a
// person's own change): 12 to 256 characters, no control or invisible formatting characters, and
// not one of the passwords every guesser tries first. The list below is short and kept here on
// purpose, rather than a package with a large dictionary: a guesser's first tries are a few
// hundred words with digits and symbols around them and letters swapped for look-alikes, which the
// rules catch, and the browser bundle (the forms check as one types) stays small. Length does the
// rest.
import * as z from "zod";

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

// The words of the most common passwords (as published lists of leaked passwords have them), in
// lower case, without the digits and symbols people add; and this product's own names.
const COMMON_WORDS = new Set(
  `password passwort passwd pass qwerty qwertz azerty qwertyuiop asdfgh asdfghjkl zxcvbn zxcvbnm qazwsx
  qazwsxedc wsxedc abc abcdef abcdefgh letmein welcome admin administrator root guest user login
  default changeme secret iloveyou monkey dragon football baseball soccer hockey basketball sunshine
  princess master shadow superman batman spiderman starwars trustno whatever freedom hello hallo
  geheim test testing michael jennifer jessica charlie hunter computer internet summer winter spring
  autumn access mustang killer pepper daniel jordan harley ranger buster thomas tigger robert maggie
  ginger flower lovely loveme love hottie cookie cheese chocolate banana orange purple silver golden
  pokemon minecraft google facebook microsoft apple samsung linux windows company office business
  almanac gardener kubernetes shoot garden cluster`.split(/\s+/),
);

// Runs along a keyboard row, the alphabet and the digits ("qwertyuiopas", "123456789012").
const RUNS = ["qwertyuiopasdfghjklzxcvbnm", "qwertzuiopasdfghjklyxcvbnm", "abcdefghijklmnopqrstuvwxyz", "0123456789"];

// Digits and symbols read as the letters they stand for.
const LOOK_ALIKES: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "!": "i",
};

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why `password` is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `at most ${PASSWORD_MAX_LENGTH} characters`;
  if (CONTROL_OR_FORMAT.test(password)) return "no control or invisible formatting characters";
  const lower = password.toLowerCase();
  if (new Set(lower).size < 5) return "too few different characters";
  if (RUNS.some((run) => run.repeat(Math.ceil(lower.length / run.length) + 1).includes(lower)))
    return "a run of keys, letters or digits is among the first guesses";
  const letters = lower.replace(/[^\p{L}]/gu, "");
  // Look-alikes count between letters ("p@ssw0rd"); digits and symbols around a word are dropped.
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
  const lookAlike = [...core]
    .map((c) => LOOK_ALIKES[c] ?? c)
    .join("")
    .replace(/[^\p{L}]/gu, "");
  const words = [letters, lookAlike, lookAlike.replace(/(.)\1+/g, "$1")];
  if (words.some((w) => COMMON_WORDS.has(w) || [...COMMON_WORDS].some((c) => w === c + c)))
    return "one of the most common passwords; choose another";
  if (letters === "" && new Set(lower).size < 8) return "one of the most common passwords; choose another";
  return undefined;
}

/** The zod schema of a new password, with the policy's reason as its message. */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`)
  .superRefine((password, ctx) => {
    // The length is min's and max's to report, once.
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return;
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
