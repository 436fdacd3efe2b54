/**
 * What the gateway request's `context.scope` does (docs/decisions.md, "The gateway
 * request's context.scope"): it names the side of the organization an operation acts
 * on. An operation declares whether it takes it: `param` fills its own `scope` param
 * when the params name none (before the access decision, so acting on the
 * organization's side needs what `scope: "organization"` needs); `providers` limits the
 * providers its call may use to that side. Other operations ignore it.
 */
import type { Identity, ProviderSide } from "../domain/identity.ts";
import { badRequest } from "../lib/errors.ts";

export type ContextScope = "param" | "providers";

const ownScope = (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).scope : undefined;

/** The params as the operation sees them: its own `scope` when given (it wins), else the context's. */
export function withContextScope(takes: ContextScope | undefined, side: ProviderSide | undefined, raw: unknown): unknown {
  if (takes !== "param" || side === undefined || ownScope(raw) !== undefined) return raw;
  if (raw === undefined || raw === null) return { scope: side };
  // Not an object: the params schema refuses it, naming `params`.
  if (typeof raw !== "object" || Array.isArray(raw)) return raw;
  return { ...(raw as Record<string, unknown>), scope: side };
}

/**
 * A service account has no providers of its own (its creator's are lent to it), so
 * `context.scope: "user"` asks for a side it does not have: refused, naming the field,
 * rather than answered from nothing. An operation's own `scope` param decides alone.
 */
export function checkContextSide(takes: ContextScope | undefined, side: ProviderSide | undefined, identity: Identity, raw: unknown): void {
  if (takes === undefined || side !== "user" || identity.kind === "user") return;
  if (takes === "param" && ownScope(raw) !== undefined) return;
  throw badRequest(
    'context.scope: "user" means the caller\'s own providers, and a service account has none; send "organization" (the organization\'s providers) or leave it out (the organization\'s, then its creator\'s)',
    { param: "context.scope" },
  );
}

/** The caller limited to one side's providers, for every place a call picks them (services/provider-access.ts). */
export const onSide = (identity: Identity, side: ProviderSide): Identity => ({ ...identity, providerSide: side });
