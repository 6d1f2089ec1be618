// What an export use case answers: the file's name and format, and its text piece by piece (the
// route handler streams it, lib/http/download.ts).
import type { ExportFormat } from "../api/export.ts";

export interface Export {
  readonly filename: string;
  readonly format: ExportFormat;
  readonly pieces: AsyncIterator<string>;
}

/** The day of `now` for file names: 2026-11-24. */
export const fileDay = (now: number) => new Date(now).toISOString().slice(0, 10);
