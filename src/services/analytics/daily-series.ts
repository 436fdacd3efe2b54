/** Hourly roll-up rows summed into one value per UTC day of a window (days without spend are 0). */
import type { UsageHourly } from "../../domain/types.ts";
import { DAY_MS, type DayWindow } from "./window.ts";

export function dailyCostMicros(rows: readonly UsageHourly[], w: DayWindow): number[] {
  const days = new Array<number>(w.days).fill(0);
  for (const r of rows) {
    const i = Math.floor((r.hour - w.from) / DAY_MS);
    if (i >= 0 && i < w.days) days[i]! += r.costMicros;
  }
  return days;
}
