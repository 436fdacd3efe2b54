/** Analytics windows: the `7d` / `30d` / `90d` names and the UTC days they cover. */
import { badRequest } from "../../lib/errors.ts";

export const DAY_MS = 86_400_000;
export const PERIODS = { "7d": 7, "30d": 30, "90d": 90 } as const;
export type PeriodName = keyof typeof PERIODS;

/** `7d`, `30d` or `90d` to a day count; anything else is a 400 naming the parameter. */
export function parsePeriod(raw: string | null | undefined, param: string, fallback: PeriodName = "30d"): number {
  const name = raw ?? fallback;
  if (Object.hasOwn(PERIODS, name)) return PERIODS[name as PeriodName];
  throw badRequest(`${param}: "${String(name).slice(0, 50)}" is not a period; use 7d, 30d or 90d`, { param });
}

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The window of `days` UTC days ending with today (today included, still open). */
export interface DayWindow {
  from: number;
  /** Exclusive: the start of tomorrow. */
  to: number;
  days: number;
}

export function windowOf(days: number, now: number): DayWindow {
  const to = dayOf(now) + DAY_MS;
  return { from: to - days * DAY_MS, to, days };
}
