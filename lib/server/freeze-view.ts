// A stored freeze as the API answers it, as the engine decides with it, and as a forecast item's
// mark names it.
import type { FreezeMark } from "../api/freeze-mark.ts";
import type { FreezeJson, FreezeState } from "../api/freezes.ts";
import type { FreezePeriod } from "../engine/freezes.ts";
import type { StoredFreeze } from "../store/freezes.ts";

export function freezeState(freeze: Pick<StoredFreeze, "start" | "end">, now: number): FreezeState {
  if (freeze.end.getTime() <= now) return "past";
  return freeze.start.getTime() <= now ? "current" : "upcoming";
}

export function freezeJson(freeze: StoredFreeze, now: number): FreezeJson {
  return {
    id: freeze.id,
    start: freeze.start.toISOString(),
    end: freeze.end.toISOString(),
    reason: freeze.reason,
    project: freeze.project,
    createdBy: freeze.createdBy,
    created: freeze.createdAt.toISOString(),
    state: freezeState(freeze, now),
  };
}

export function freezePeriod(freeze: StoredFreeze): FreezePeriod {
  return {
    id: freeze.id,
    start: freeze.start.getTime(),
    end: freeze.end.getTime(),
    reason: freeze.reason,
    ...(freeze.project !== null ? { project: freeze.project } : {}),
  };
}

export function freezeMark(freeze: FreezePeriod): FreezeMark {
  return {
    id: freeze.id,
    reason: freeze.reason,
    start: new Date(freeze.start).toISOString(),
    end: new Date(freeze.end).toISOString(),
    project: freeze.project ?? null,
  };
}

/** "landscape-wide" or "of project dev", for sentences. */
export const freezeScopeWords = (freeze: Pick<FreezePeriod, "project">): string =>
  freeze.project === undefined ? "landscape-wide" : `of project ${freeze.project}`;
