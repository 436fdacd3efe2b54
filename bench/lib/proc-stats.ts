/**
 * What a process has used, read from /proc: CPU time (user + system) and memory
 * (current and peak resident set). Linux only, which is where the suite runs.
 */
import { readFileSync } from "node:fs";

/** Clock ticks per second for /proc/PID/stat times; 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

function statMicros(path: string): number {
  const stat = readFileSync(path, "utf8");
  // Fields after the command name (which may hold spaces) start at its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1_000_000) / TICKS_PER_SECOND;
}

/** CPU time the process has used so far (every thread), in microseconds. */
export function cpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/stat`);
}

/**
 * CPU time of the process's main thread alone, in microseconds: the JavaScript thread,
 * where every stage runs. The rest (Bun's HTTP client thread, the collector's helpers,
 * the allocator's) is what the runtime spends whatever the code does.
 */
export function mainThreadCpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/task/${pid}/stat`);
}

/** Resident set size now and at its peak, in MiB. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}
