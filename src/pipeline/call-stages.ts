/**
 * The stages every model call runs once, before its attempts, as one ordered list on
 * the runner of stages.ts: plan the targets (stage 4, with the first one authorized
 * at once: geography and tier, stage 5), optimize the context when asked, scan every
 * text (stage 6). Each may replace the body the call carries (the optimizer's copy,
 * redaction's copy); their afters put what they found on the answer once the call has
 * one (the optimizer's figures, the scan's counts). Then the attempts run, each with
 * its own list (attempt-stages.ts). Adding a call-level check is one stage here.
 */
import type { Target } from "../providers/target.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import { authorizeTarget } from "./authorize.ts";
import type { CallInput, CallOutcome } from "./call-types.ts";
import { type OptimizeDeps, optimizeContext, optimizeEmbeddings, type OptimizeFormat } from "./optimize-context.ts";
import { planRoute, type RoutedPlan, type RoutePlanDeps, type RouteRequest } from "./route-plan.ts";
import { resolverFor } from "./sandbox-target.ts";
import type { TextSlot } from "./scan/request-texts.ts";
import { scanRequest } from "./security-scan.ts";
import type { Stage } from "./stages.ts";

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
    async before(ctx) {
      const { identity } = ctx.input.scope;
      const resolve = resolverFor(identity);
      ctx.plan = ctx.route
        ? await planRoute(deps, resolve, identity, ctx.input.headers, ctx.route)
        : { targets: [await resolve(deps.resolve, identity, String(ctx.body.model), ctx.input.headers)], fallback: false, routed: null };
      authorizeTarget(identity, ctx.plan.targets[0]);
      return null;
    },
  };
}

/** The context optimizer, when the call or its organization asks: its copy is what is scanned and sent; its figures are kept once answered. */
export function optimizeStage(deps: OptimizeDeps): CallStage {
  return {
    name: "optimize",
    async before(ctx) {
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
    },
  };
}

/** Every text the call sends, with the organization's action for personal data: a block is a 400; redaction sends the copy. */
export function scanStage(settings: OrgSettings): CallStage {
  return {
    name: "scan",
    async before(ctx) {
      const { piiAction, phoneRegion } = await settings.get(ctx.input.scope.identity.organization.id);
      const scanned = scanRequest(ctx.body, ctx.texts, piiAction, phoneRegion);
      ctx.body = scanned.body;
      return (outcome) => {
        if (outcome) outcome.security = scanned.header;
      };
    },
  };
}

export interface CallStageDeps {
  route: RoutePlanDeps;
  optimize: OptimizeDeps;
}

/** The list, in order. */
export function callStages(deps: CallStageDeps): CallStage[] {
  return [planStage(deps.route), optimizeStage(deps.optimize), scanStage(deps.route.settings)];
}
