/** A problem with the user's input or flags: printed as one line, exit code 2, no stack trace. */
export class CliError extends Error {}
