/**
 * CI's check that the scanner reads hostile text in linear time: every shape of
 * bench/lib/adversarial-shapes.ts scanned at 512 KB, 1 MB and 2 MB, the best of three tries
 * each, judged by bench/lib/linearity-verdict.ts. A rule that begins again at every
 * character of a run and reads the rest of it each time (a quadratic scan, which lets one
 * prompt hold a core) fails here; the test suite has no timed assertions, so this lives
 * beside the regression guard. Usage: `bun bench/linearity.ts` (about 30 s; exit 1 on a
 * superlinear shape).
 */
import { scanText } from "../src/pipeline/scan/engine.ts";
import { adversarialShapes } from "./lib/adversarial-shapes.ts";
import { type ShapeTiming, superlinear } from "./lib/linearity-verdict.ts";

const BASE = 512 * 1024;
const SIZES = [BASE, BASE * 2, BASE * 4] as const;
type Shapes = Record<string, string>;

function bestMs(text: string, tries = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tries; i++) {
    const started = performance.now();
    scanText(text, { injection: true });
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// A probe at 64 KB first, which also warms the scanner's code: every shape reads it in a few
// milliseconds, and a quadratic one in seconds (a run of "#" begun again at every "#": 2.5 s), at
// 2 MB it would take hours. Such a shape fails here, without its larger sizes.
const PROBE_LIMIT_MS = 250;
const probe = adversarialShapes(64 * 1024);
const tooSlow = Object.keys(probe).filter((shape) => {
  const started = performance.now();
  scanText(probe[shape] as string, { injection: true });
  return performance.now() - started > PROBE_LIMIT_MS;
});
if (tooSlow.length > 0) {
  console.error(`linearity: over ${PROBE_LIMIT_MS} ms for 64 KB (superlinear, not measured further): ${tooSlow.join(", ")}`);
  process.exit(1);
}

const [base, double, quadruple] = SIZES.map((size) => adversarialShapes(size)) as [Shapes, Shapes, Shapes];
const timings: ShapeTiming[] = Object.keys(base).map((shape) => ({
  shape,
  ms: [bestMs(base[shape] as string), bestMs(double[shape] as string), bestMs(quadruple[shape] as string)],
}));
const failed = superlinear(timings);
for (const t of timings) {
  const [base, double, quadruple] = t.ms;
  const mark = failed.includes(t) ? "SUPERLINEAR" : "";
  console.log(
    `${t.shape.padEnd(20)} ${t.ms.map((ms) => ms.toFixed(1).padStart(8)).join(" ")} ms  x${(quadruple / double).toFixed(2)} x${(quadruple / base).toFixed(2)} ${mark}`,
  );
}
if (failed.length > 0) {
  console.error(`linearity: ${failed.length} shape(s) grew faster than the text: ${failed.map((t) => t.shape).join(", ")}`);
  process.exit(1);
}
console.log(`linearity: ${timings.length} shapes at 512 KB, 1 MB and 2 MB, each linear`);
