/**
 * Stage 4 for calls that may use more than one provider: which targets to try, in
 * order. `model: "gateway/auto"` asks the router (strategy from `x-gw-route`, else the
 * organization's `defaultRouteStrategy`, else balanced) and tries its ranking; a
 * family (`gpt-4o*`, routing/family.ts) asks the same among that family's models. A
 * named model is tried first and then the models of `x-gw-fallback-models`, in the
 * order given (else the organization's `fallbackModels` preference for it). A named
 * model with `x-gw-route` engages the router as `gateway/auto` does, among the
 * candidates that can serve the request (the specification: the header "engages MoE
 * routing"), and the named model ranks first among equals; without the header (the
 * organization's default strategy is not enough) a named model is never replaced.
 * `x-gw-fallback: off` keeps one attempt.
 */
import type { Identity } from "../domain/identity.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { andThen, type MaybePromise } from "../lib/maybe-promise.ts";
import type { OrgPreferences, ProviderFormat } from "../domain/types.ts";
import type { Decision, Preferred, ScoredCandidate } from "../routing/decide.ts";
import { decide } from "../routing/decide.ts";
import { familyOf, inFamily } from "../routing/family.ts";
import type { RouteNeeds } from "../routing/needs.ts";
import { isStrategy, type Strategy, type TaskType } from "../routing/strategy.ts";
import { routeCandidates } from "../services/route-candidates.ts";
import { AUTO_MODEL, isRoutedName, NAME_FALLBACK_MODELS, routedNameRefused } from "../services/routed-names.ts";
import type { LiveProvider } from "../state/provider-directory.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import type { ProviderLimitCounter } from "../state/provider-limits.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import type { ResolvedTarget } from "./authorize.ts";
import { type AttemptPlan, TargetUnsuitable } from "./fallback.ts";
import type { ResolveDeps } from "./resolve-provider.ts";

export { AUTO_MODEL };

/** Targets resolved for one call at most: the attempts a caller may wait through. */
export const MAX_TARGETS = 5;

export interface RoutePlanDeps {
  resolve: ResolveDeps;
  settings: OrgSettings;
  health: ProviderHealth;
  limits: ProviderLimitCounter;
}

export type Resolver = (deps: ResolveDeps, identity: Identity, model: string, headers: Headers) => MaybePromise<ResolvedTarget>;

/** A routed plan also carries the router's decision (the route answer shows it). */
export interface RoutedPlan extends AttemptPlan {
  routed: { strategy: Strategy; decision: Extract<Decision, { ok: true }> } | null;
}

export interface RouteRequest {
  model: string;
  needs: () => RouteNeeds;
  /** The messages endpoint routes among messages-format providers only. */
  format?: ProviderFormat;
  task?: TaskType;
  /** A strategy given in the request body (`/api/byok/route`); wins over the header. */
  strategy?: Strategy;
  /** `fallback` given in the request body; wins over `x-gw-fallback`. */
  fallback?: boolean;
  /** Rank every candidate (the route answer lists them all), not only the targets a call may try. */
  rankAll?: boolean;
}

function fallbackOn(headers: Headers): boolean {
  const raw = headers.get("x-gw-fallback");
  if (raw === null || raw === "on") return true;
  if (raw === "off") return false;
  throw badRequest(`x-gw-fallback: "on" or "off", not "${raw.slice(0, 20)}"`, { param: "x-gw-fallback" });
}

/** `x-gw-fallback-models`, else the organization's `fallbackModels` for this model (at once when the settings are in memory). */
function fallbackModels(deps: RoutePlanDeps, identity: Identity, headers: Headers, model: string): MaybePromise<string[]> {
  const raw = headers.get("x-gw-fallback-models");
  if (raw === null) {
    const settings = deps.settings.get(identity.organization.id);
    // In memory (the usual call): no closure is built.
    return settings instanceof Promise ? configuredFallbacksOnceLoaded(settings, model) : configuredFallbacks(settings, model);
  }
  const models = raw
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (models.length === 0 || models.length > MAX_TARGETS - 1)
    throw badRequest(`x-gw-fallback-models: 1 to ${MAX_TARGETS - 1} model ids separated by commas`, { param: "x-gw-fallback-models" });
  // A fallback is one model: a family or gateway/auto here was sent to a vendor as a literal model id, priced at its family's ceiling.
  const routed = models.find(isRoutedName);
  if (routed !== undefined) throw routedNameRefused("x-gw-fallback-models", routed, NAME_FALLBACK_MODELS);
  return models;
}

/** No fallback models: shared, never changed (the plan copies what it uses). */
const NO_FALLBACKS: string[] = [];

function configuredFallbacks(settings: OrgPreferences, model: string): string[] {
  const configured = settings.fallbackModels;
  // Own entries only: a model a provider declares as `constructor` or `__proto__` would otherwise read Object.prototype's.
  return configured && Object.hasOwn(configured, model) ? (configured[model] as string[]) : NO_FALLBACKS;
}

async function configuredFallbacksOnceLoaded(loading: Promise<OrgPreferences>, model: string): Promise<string[]> {
  return configuredFallbacks(await loading, model);
}

/** Synchronous unless the organization's preferences must be loaded (most calls never wait a turn here). */
function strategyFor(deps: RoutePlanDeps, identity: Identity, headers: Headers): Strategy | Promise<Strategy> {
  const raw = headers.get("x-gw-route");
  if (raw !== null) {
    if (!isStrategy(raw))
      throw badRequest(`x-gw-route: one of cost, speed, quality, balanced, not "${raw.slice(0, 20)}"`, { param: "x-gw-route" });
    return raw;
  }
  return andThen(deps.settings.get(identity.organization.id), (p: OrgPreferences): Strategy => p.defaultRouteStrategy ?? "balanced");
}

/**
 * The targets for a call, in the order to try them. The first is authorized by the caller, the rest per attempt.
 * A named model is planned at once when the directory and the settings are in memory (the usual call); routing waits for the providers.
 */
export function planRoute(
  deps: RoutePlanDeps,
  resolve: Resolver,
  identity: Identity,
  headers: Headers,
  req: RouteRequest,
): MaybePromise<RoutedPlan> {
  const fallback = req.fallback ?? fallbackOn(headers);
  const family = familyOf(req.model);
  const routeHeader = headers.get("x-gw-route") !== null;
  if (req.model === AUTO_MODEL || family !== null || routeHeader)
    return routedPlan(deps, resolve, identity, headers, req, fallback, family, routeHeader);
  return namedPlan(deps, resolve, identity, headers, req.model, fallback);
}

/** The model as named, then its fallback models, resolved as any model would be when their turn comes; the per-request key serves the first only. */
function namedPlan(
  deps: RoutePlanDeps,
  resolve: Resolver,
  identity: Identity,
  headers: Headers,
  model: string,
  fallback: boolean,
): MaybePromise<RoutedPlan> {
  const first = resolve(deps.resolve, identity, model, headers);
  // Resolved at once (the usual call): no closure is built.
  if (first instanceof Promise) return namedPlanOnceResolved(deps, resolve, identity, headers, model, fallback, first);
  if (!fallback) return { targets: [first], fallback, routed: null };
  const models = fallbackModels(deps, identity, headers, model);
  if (models instanceof Promise) return namedPlanOnceResolved(deps, resolve, identity, headers, model, fallback, first, models);
  // None configured (the usual call): the plan without entering the function that builds a closure per model.
  return models.length === 0 ? { targets: [first], fallback, routed: null } : withFallbacks(deps, resolve, identity, first, models);
}

async function namedPlanOnceResolved(
  deps: RoutePlanDeps,
  resolve: Resolver,
  identity: Identity,
  headers: Headers,
  model: string,
  fallback: boolean,
  resolving: MaybePromise<ResolvedTarget>,
  /** The fallback models when they were asked for already. */
  listing?: Promise<string[]>,
): Promise<RoutedPlan> {
  const first = await resolving;
  if (!fallback) return { targets: [first], fallback, routed: null };
  return withFallbacks(deps, resolve, identity, first, await (listing ?? fallbackModels(deps, identity, headers, model)));
}

/** The first target, then each fallback model, resolved when its turn comes. */
function withFallbacks(deps: RoutePlanDeps, resolve: Resolver, identity: Identity, first: ResolvedTarget, models: string[]): RoutedPlan {
  const targets: AttemptPlan["targets"] = [first];
  for (const m of models) targets.push(() => resolve(deps.resolve, identity, m, NO_HEADERS));
  return { targets, fallback: true, routed: null };
}

/** `gateway/auto`, a family, or a named model with `x-gw-route`: the router's ranking among the providers the caller may use. */
async function routedPlan(
  deps: RoutePlanDeps,
  resolve: Resolver,
  identity: Identity,
  headers: Headers,
  req: RouteRequest,
  fallback: boolean,
  family: string | null,
  routeHeader: boolean,
): Promise<RoutedPlan> {
  const loaded = deps.resolve.directory.get(identity.organization.id);
  const providers = loaded instanceof Promise ? await loaded : loaded;
  // A model a configuration declares under a name that reads as a family is that model, as named.
  if (family !== null && providers.some((p) => p.record.models.includes(req.model))) family = null;
  const named = req.model !== AUTO_MODEL && family === null;
  if (named && !routeHeader) return namedPlan(deps, resolve, identity, headers, req.model, fallback);
  if (headers.get("x-gw-provider-key") !== null)
    throw badRequest(
      named
        ? "x-gw-provider-key: a per-request key names one provider; it cannot be routed. Send it without x-gw-route."
        : `x-gw-provider-key: a per-request key names one provider; it cannot be routed. Name a model instead of ${req.model.slice(0, 100)}.`,
      { param: "x-gw-provider-key" },
    );
  const chosen = req.strategy ?? strategyFor(deps, identity, headers);
  const strategy = chosen instanceof Promise ? await chosen : chosen;
  // The named model as a target (it must exist, as without the header): the router ranks it first among equals.
  const asNamed = named ? await resolve(deps.resolve, identity, req.model, headers) : null;
  const prefer: Preferred | undefined = asNamed ? (c) => c.providerId === asNamed.configId && c.model === asNamed.model : undefined;
  const candidates = routeCandidates(
    providers,
    identity,
    { catalog: deps.resolve.catalog, health: deps.health, atLimit: (id) => atLimit(deps, providers, id) },
    { format: req.format, models: family === null ? undefined : inFamily(family) },
  );
  if (family !== null && candidates.length === 0)
    throw new ApiError(
      400,
      "moe_routing_unavailable",
      `No provider you may use (configured, and authorized for your organization's geography and tier) offers a model of the family ${req.model.slice(0, 100)} for this endpoint.`,
      { param: "model", details: { reason: "no_provider" } },
    );
  const decision = decide(candidates, req.needs(), strategy, req.task, req.rankAll ? undefined : MAX_TARGETS, prefer);
  if (!decision.ok)
    throw new ApiError(400, "moe_routing_unavailable", decision.message, { param: "model", details: { reason: decision.reason } });
  // Each target named as `configuration/model`, so it resolves to that configuration; the later ones only when their turn comes.
  const nameOf = (s: ScoredCandidate) => `${s.candidate.providerName}/${s.candidate.model}`;
  const [best, ...rest] = decision.ranked.slice(0, MAX_TARGETS);
  const first = asNamed && prefer!(best!.candidate) ? asNamed : await resolve(deps.resolve, identity, nameOf(best!), NO_HEADERS);
  const targets: AttemptPlan["targets"] = [first];
  for (const s of rest) targets.push(() => rankedTarget(deps, resolve, identity, nameOf(s), s.candidate.providerId));
  // A candidate the spend cap cannot pay for is passed over for the next (fallback.ts).
  return { targets, fallback, passOverCaps: true, routed: { strategy, decision } };
}

/**
 * A ranked candidate resolved when its turn comes. Its configuration may have gone
 * since the plan (deleted, its owner gone, its name given to another): the router's
 * verdict was for that configuration, so the target is passed over, not the call ended.
 */
async function rankedTarget(deps: RoutePlanDeps, resolve: Resolver, identity: Identity, name: string, configId: string) {
  let target: ResolvedTarget;
  try {
    target = await resolve(deps.resolve, identity, name, NO_HEADERS);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw new TargetUnsuitable(`${name.slice(0, 200)} is no longer configured.`);
    throw err;
  }
  // A sandbox key's target is simulated, without its configuration's id: the name resolved is all there is to compare.
  if (!target.simulated && target.configId !== configId) throw new TargetUnsuitable(`${name.slice(0, 200)} is now another configuration.`);
  return target;
}

const NO_HEADERS = new Headers();

function atLimit(deps: RoutePlanDeps, providers: LiveProvider[], id: string): boolean {
  const limits = providers.find((x) => x.record.id === id)?.record.limits;
  // Most configurations set no limit of their own: nothing to count.
  if (
    limits === undefined ||
    (limits.requestsPerMinute === undefined && limits.tokensPerMinute === undefined && limits.requestsPerDay === undefined)
  )
    return false;
  return deps.limits.atLimit(id, limits);
}
