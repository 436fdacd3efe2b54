/**
 * A CPU profile's samples split by request stage, for bench/profile.ts: each sample goes
 * to the stage of the innermost frame on its stack whose file belongs to one (so the
 * runtime's own work a stage calls, fetch or JSON or a regular expression, counts for
 * that stage); samples under the project's other code count as the request's frame and
 * glue, and samples with no project frame at all (the server reading requests, the
 * collector, idle) as the runtime's. The files are matched by path, so the split reads
 * the same on an older revision with the same layout.
 *
 *   bun bench/lib/profile-stages.ts DIR_OR_FILE [CPU_US_PER_CALL]   # a profile's split, by share (and µs a call),
 *                                                                    # then the heaviest functions outside the scan
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** Stage, and the source paths (prefixes under src/) that are its code; the first match wins. */
export const STAGES: [string, string[]][] = [
  ["authentication", ["pipeline/authenticate.ts", "state/key-cache.ts", "services/identity.ts", "domain/api-key.ts"]],
  ["rate limit", ["pipeline/rate-limit.ts", "state/rate-limiter.ts", "state/redis/redis-rate-limiter.ts"]],
  [
    "route plan and provider resolution",
    [
      "pipeline/route-plan.ts",
      "routing/",
      "services/route-candidates.ts",
      "pipeline/resolve-provider.ts",
      "pipeline/sandbox-target.ts",
      "state/provider-directory.ts",
      "providers/registry.ts",
      "state/org-settings.ts",
    ],
  ],
  ["scan (with the classifier)", ["pipeline/security-scan.ts", "pipeline/scan-cache.ts", "pipeline/scan/"]],
  ["policy (authorization, context)", ["policy/", "pipeline/authorize.ts", "pipeline/optimize-context.ts", "services/context-optimizer/"]],
  [
    "spend reservation",
    [
      "pipeline/reserve-spend.ts",
      "state/spend-ledger.ts",
      "state/memory-spend-ledger.ts",
      "state/redis/redis-spend-ledger.ts",
      "lib/token-estimate.ts",
      "pipeline/count-tokens.ts",
    ],
  ],
  [
    "health and rate bookkeeping",
    ["state/provider-health", "state/provider-limits.ts", "state/provider-rate-usage.ts", "pipeline/provider-limit.ts"],
  ],
  [
    "accounting and analytics",
    ["pipeline/account.ts", "state/usage-buffer.ts", "store/", "services/analytics/", "pipeline/call-metrics.ts"],
  ],
  ["tracing", ["lib/tracing/"]],
  [
    "forward (adapters, egress, the provider call, the answer read)",
    [
      "pipeline/forward.ts",
      // Split out of forward.ts: still counted here, so profiles before and after the split compare.
      "pipeline/attempt-accounting.ts",
      "pipeline/stream-outcome.ts",
      "pipeline/fallback.ts",
      "pipeline/attempt-stages.ts",
      "providers/",
      "lib/egress/",
      "translate/",
      "lib/sse.ts",
      "lib/sse-tap.ts",
      "lib/json-members.ts",
      "pipeline/substitution.ts",
    ],
  ],
];
export const FRAME = "request frame, surface and stage glue";
const SCAN = "scan (with the classifier)";
const TOP_OUTSIDE = 15;
export const RUNTIME = "runtime alone (server, collector, idle)";

function stageOf(url: string): string | null {
  const at = url.indexOf("/src/");
  if (at < 0) return null;
  const path = url.slice(at + 5);
  for (const [stage, prefixes] of STAGES) if (prefixes.some((p) => path.startsWith(p))) return stage;
  return FRAME;
}

/** Each sample's stage, found once per node rather than once per sample. */
function stageFinder(profile: Profile): { byId: Map<number, ProfileNode>; stageOfNode: (id: number) => string } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const stageOfNode = (id: number): string => {
    const known = memo.get(id);
    if (known) return known;
    let found: string | null = null;
    let sawProject = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const s = stageOf(byId.get(at)?.callFrame.url ?? "");
      if (s === null) continue;
      sawProject = true;
      if (s !== FRAME) {
        found = s;
        break;
      }
    }
    const stage = found ?? (sawProject ? FRAME : RUNTIME);
    memo.set(id, stage);
    return stage;
  };
  return { byId, stageOfNode };
}

/** Samples per stage (FRAME and RUNTIME included), and the total, idle samples left out. */
export function splitByStage(profile: Profile): { samples: Map<string, number>; total: number } {
  const { byId, stageOfNode } = stageFinder(profile);
  const samples = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    // Idle samples are time the process waited, not CPU it used.
    if (byId.get(id)?.callFrame.functionName === "(idle)") continue;
    total++;
    const s = stageOfNode(id);
    samples.set(s, (samples.get(s) ?? 0) + 1);
  }
  return { samples, total };
}

/**
 * Self time by function (the innermost frame, the runtime's own included: `Response`,
 * `JSON.parse`) of the samples outside `stage`, and the total of samples that were not
 * idle: the heaviest items of the rest of the call with one stage (the scan) set aside.
 */
export function selfOutside(profile: Profile, stage: string): { samples: Map<string, number>; total: number } {
  const { byId, stageOfNode } = stageFinder(profile);
  const samples = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const f = byId.get(id)?.callFrame;
    if (!f || f.functionName === "(idle)") continue;
    total++;
    if (stageOfNode(id) === stage) continue;
    const at = f.url.indexOf("/src/");
    const file = at >= 0 ? f.url.slice(at + 1) : f.url.split("/").slice(-2).join("/") || "(native)";
    const name = `${f.functionName || "(anonymous)"}  ${file}:${f.lineNumber + 1}`;
    samples.set(name, (samples.get(name) ?? 0) + 1);
  }
  return { samples, total };
}

if (import.meta.main) {
  // bun bench/lib/profile-stages.ts DIR_OR_FILE [CPU_US_PER_CALL]: the largest profile in DIR, split by stage.
  const [where, perCall] = process.argv.slice(2);
  if (!where) {
    console.error("usage: bun bench/lib/profile-stages.ts DIR_OR_FILE [CPU_US_PER_CALL]");
    process.exit(2);
  }
  const file = statSync(where).isDirectory()
    ? readdirSync(where)
        .filter((f) => f.endsWith(".cpuprofile"))
        .map((f) => join(where, f))
        .sort((a, b) => statSync(b).size - statSync(a).size)[0]
    : where;
  if (!file) throw new Error(`no .cpuprofile in ${where}`);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const line = (n: number, total: number, what: string) => {
    const share = n / total;
    const micros = perCall ? `${(share * Number(perCall)).toFixed(2).padStart(6)} µs ` : "";
    return `${micros}${(share * 100).toFixed(1).padStart(5)}%  ${what}`;
  };
  const split = splitByStage(profile);
  console.log(`${file}: ${split.total} samples that were not idle`);
  for (const [stage, n] of [...split.samples.entries()].sort((a, b) => b[1] - a[1])) console.log(line(n, split.total, stage));
  // The scan is its own engineers' work: the rest of the call's heaviest items, by self time.
  const rest = selfOutside(profile, SCAN);
  console.log(`\nself time outside the scan, the heaviest ${TOP_OUTSIDE}:`);
  for (const [name, n] of [...rest.samples.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP_OUTSIDE))
    console.log(line(n, rest.total, name));
}
