/**
 * The stages every model call runs once, before its attempts, as one ordered list on
 * the runner of stages.ts: plan the targets (stage 4, with the first one authorized
 * at once: geography and tier, stage 5), optimize the context when asked, scan every
 * text (stage 6). Each may replace the body the call carries (the optimizer's copy,
 * redaction's copy); their afters put what they found on the answer once the call has
 * one (the optimizer's figures, the scan's counts). Then the attempts run, each with
 * its own list (attempt-stages.ts). Adding a call-level check is one stage here.
 */
import type { ScanRecorder } from "../domain/scan-policy.ts";
import type { Target } from "../providers/target.ts";
import { authorizeTarget } from "./authorize.ts";
import type { CallInput, CallOutcome } from "./call-types.ts";
import { type OptimizeDeps, optimizeContext, optimizeEmbeddings, type OptimizeFormat, optimizerWanted } from "./optimize-context.ts";
import { planRoute, type RoutedPlan, type RoutePlanDeps, type RouteRequest } from "./route-plan.ts";
import { resolverFor } from "./sandbox-target.ts";
import type { TextSlot } from "./scan/request-texts.ts";
import { type ScanCallDeps, scanCall } from "./scan-call.ts";
import type { ScanCache } from "./scan-cache.ts";
import type { ScanVerdict } from "./security-scan.ts";
import type { After, Stage } from "./stages.ts";
import { ApiError } from "../lib/errors.ts";
import { andThen, type MaybePromise } from "../lib/maybe-promise.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";

type Json = Record<string, unknown>;

/** One call as its stages see it. */
export interface CallContext {
  readonly input: CallInput;
  /** The body as it will be sent: a stage that rewrites it replaces it (the caller's object is never changed). */
  body: Json;
  /** How the targets are chosen: routed (a named model and its fallbacks, or `gateway/auto`), or null for the body's one model. */
  readonly route: RouteRequest | null;
  /** How the optimizer reads this endpoint's body. */
  readonly optimize: OptimizeFormat | "embeddings";
  /** The GenAI conventions' operation name, for the call's span (`chat`, `embeddings`). */
  readonly operation: string;
  /** Every text of this endpoint's body, for the scanner. */
  readonly texts: (body: Json) => TextSlot[];
  /** Set by the plan stage. */
  plan?: RoutedPlan;
}

export type CallStage = Stage<CallContext, CallOutcome>;

/** The targets to try, the first authorized now, so a refusal (geography, tier) comes before anything else is done. */
export function planStage(deps: RoutePlanDeps): CallStage {
  return {
    name: "plan",
    before(ctx, span) {
      const { identity } = ctx.input.scope;
      const resolve = resolverFor(identity);
      const planned: MaybePromise<RoutedPlan> = ctx.route
        ? planRoute(deps, resolve, identity, ctx.input.headers, ctx.route)
        : andThen(resolve(deps.resolve, identity, String(ctx.body.model), ctx.input.headers), onlyTarget);
      // Planned at once (a named model, the directory and settings in memory): no promise, and no closure either.
      return planned instanceof Promise ? adoptedOncePlanned(ctx, span, planned) : adopted(ctx, span, planned);
    },
  };
}

async function adoptedOncePlanned(ctx: CallContext, span: TraceSpan, planning: Promise<RoutedPlan>): Promise<null> {
  return adopted(ctx, span, await planning);
}

function onlyTarget(first: Target): RoutedPlan {
  return { targets: [first], fallback: false, routed: null };
}

/** The plan kept on the call, its first target authorized. */
function adopted(ctx: CallContext, span: TraceSpan, plan: RoutedPlan): null {
  ctx.plan = plan;
  if (span.recording) tracePlan(span, plan);
  authorizeTarget(ctx.input.scope.identity, plan.targets[0]);
  span.set("gw.geo.decision", "allowed");
  return null;
}

/** The context optimizer, when the call or its organization asks: its copy is what is scanned and sent; its figures are kept once answered. */
export function optimizeStage(deps: OptimizeDeps): CallStage {
  return {
    name: "optimize",
    before(ctx) {
      // Off (the usual case) with the settings in memory: nothing to wait for, so no promise either.
      const prefs = deps.spend.settings.get(ctx.input.scope.identity.organization.id);
      if (!(prefs instanceof Promise) && !optimizerWanted(ctx.input.headers, prefs.contextOptimizer)) return null;
      return optimized(deps, ctx);
    },
  };
}

/** The optimizer wanted, or the settings still loading: its copy of the body, and its figures recorded once answered. */
async function optimized(deps: OptimizeDeps, ctx: CallContext): Promise<After<CallOutcome> | null> {
  const target: Target = ctx.plan!.targets[0];
  const stage =
    ctx.optimize === "embeddings"
      ? await optimizeEmbeddings(deps, ctx.input, ctx.body, target)
      : await optimizeContext(deps, ctx.input, ctx.body, ctx.optimize, target);
  if (!stage.changed) return null;
  ctx.body = stage.body;
  return async (outcome) => {
    if (outcome) await stage.settle(outcome);
  };
}

/** Every text the call sends, under the organization's scan policy: a block is a 400; redaction sends the copy; a flag goes on. */
export function scanStage(deps: ScanCallDeps): CallStage {
  return {
    name: "scan",
    before(ctx, span) {
      let scanned: ReturnType<typeof scanCall>;
      try {
        scanned = scanCall(deps, ctx.input, ctx.body, ctx.texts);
      } catch (err) {
        return refused(span, err);
      }
      // Answered at once (the usual clean call): no promise, and no closure either.
      return scanned instanceof Promise ? passedOnceScanned(ctx, span, scanned) : passed(ctx, span, scanned);
    },
  };
}

/** A block names what was found and done in its header, never the value. */
function refused(span: TraceSpan, err: unknown): never {
  if (err instanceof ApiError) span.set("gw.scan", err.headers?.["x-gw-security"]);
  throw err;
}

async function passedOnceScanned(ctx: CallContext, span: TraceSpan, scanning: Promise<ScanVerdict>): Promise<After<CallOutcome>> {
  let scanned: ScanVerdict;
  try {
    scanned = await scanning;
  } catch (err) {
    return refused(span, err);
  }
  return passed(ctx, span, scanned);
}

/** The scanned body goes on; the answer carries what was found and done. */
function passed(ctx: CallContext, span: TraceSpan, scanned: ScanVerdict): After<CallOutcome> {
  span.set("gw.scan", scanned.header);
  ctx.body = scanned.body;
  return (outcome) => {
    if (outcome) outcome.security = scanned.header;
  };
}

/** What the router decided (strategy, candidates, choice) and where the first target runs: never a message's text. */
function tracePlan(span: TraceSpan, plan: RoutedPlan): void {
  const first = plan.targets[0];
  span.set("gw.route.choice", `${first.providerName}/${first.model}`);
  span.set("gw.route.targets", plan.fallback ? plan.targets.length : 1);
  if (plan.routed) {
    span.set("gw.route.strategy", plan.routed.strategy);
    span.set("gw.route.candidates", plan.routed.decision.ranked.length);
  }
  span.set("gw.geo.country", first.country ?? "unknown");
}

export interface CallStageDeps {
  route: RoutePlanDeps;
  optimize: OptimizeDeps;
  /** Where what scanning found and did goes (counters, audit). */
  scans?: ScanRecorder;
  /** Verdicts kept per text (scan-cache.ts). */
  verdicts?: ScanCache;
}

/** The list, in order. */
export function callStages(deps: CallStageDeps): CallStage[] {
  return [
    planStage(deps.route),
    optimizeStage(deps.optimize),
    scanStage({ settings: deps.route.settings, scans: deps.scans, verdicts: deps.verdicts }),
  ];
}
