/**
 * Who may run an operation: the one vocabulary every operation declares (required, so an
 * operation that forgets does not compile) and the one rule that reads it. The registry
 * applies it before anything else runs; nothing else decides who may call.
 */
import type { Identity } from "../domain/identity.ts";
import { isSandbox } from "../pipeline/sandbox.ts";

/**
 * - `read`: changes nothing and reaches no provider. Any caller of the organization, a
 *   sandbox key included; a session may send it without `Origin`.
 * - `admin-read`: as `read`, about the organization's people and keys (members, keys,
 *   the audit log): organization role admin; an admin's sandbox key may read them too.
 * - `call`: a model call through the call pipeline, where a sandbox key is answered by
 *   the simulator; so any caller, and a sandbox key's call is simulated.
 * - `member-write`: changes something of the caller's own (their providers, preferences,
 *   sessions, notifications' read marks) or reaches a provider with a stored key outside
 *   the pipeline (`provider.test`). Any live caller; never a sandbox key.
 * - `admin`: changes the organization (members, keys, service accounts, shared settings).
 *   Organization role admin, live; never a sandbox key.
 */
export const ACCESS_LEVELS = ["read", "admin-read", "call", "member-write", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** An operation's declaration: one level, or one chosen from the (unvalidated) params, e.g. `set` makes a read a write. */
export type AccessDeclaration = Access | ((params: Record<string, unknown>) => Access);

/** The level a declaration means for these params (read before validation: the decision comes first). */
export function accessFor(declared: AccessDeclaration, params: unknown): Access {
  if (typeof declared === "string") return declared;
  return declared(typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {});
}

/** Why the caller may not run an operation needing `access`, or null when they may. */
export function refusal(access: Access, identity: Identity): "sandbox" | "role" | null {
  if ((access === "admin" || access === "admin-read") && identity.role !== "admin") return "role";
  // A leaked test key must be no more dangerous than a read-only one.
  if ((access === "admin" || access === "member-write") && isSandbox(identity)) return "sandbox";
  return null;
}

/** Changes nothing: a session may send it without `Origin` (a cross-site page cannot read the answer). */
export const isReadAccess = (access: Access): boolean => access === "read" || access === "admin-read";
