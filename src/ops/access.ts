/**
 * Who may run an operation: the one vocabulary every operation declares (required, so an
 * operation that forgets does not compile) and the one rule that reads it. The registry
 * applies it before anything else runs; nothing else decides who may call.
 */
import type { Identity } from "../domain/identity.ts";
import type { Role } from "../domain/types.ts";
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

/**
 * A level that one param changes: `set` makes reading preferences a write, `userId` makes
 * signing out a member's sessions an admin's act. Data, not code, so the access table in
 * docs/security.md can be generated from it.
 */
export interface ParamAccess {
  param: string;
  /** The level when the param is absent (or has none of `values`). */
  absent: Access;
  present: Access;
  /** Only these values count as present (any value when omitted). */
  values?: readonly string[];
}

/** An operation's declaration: one level, or one chosen by a param. */
export type AccessDeclaration = Access | ParamAccess;

/** The level a declaration means for these params (read before validation: the decision comes first). */
export function accessFor(declared: AccessDeclaration, params: unknown): Access {
  if (typeof declared === "string") return declared;
  const value =
    typeof params === "object" && params !== null && !Array.isArray(params)
      ? (params as Record<string, unknown>)[declared.param]
      : undefined;
  if (value === undefined) return declared.absent;
  return declared.values === undefined || declared.values.includes(value as string) ? declared.present : declared.absent;
}

/** Params that reach each level a declaration can mean: `{}`, and one with its param present. */
export function accessCases(declared: AccessDeclaration): { params: Record<string, unknown>; access: Access; when: string | null }[] {
  if (typeof declared === "string") return [{ params: {}, access: declared, when: null }];
  const value = declared.values?.[0] ?? {};
  const shown = declared.values ? `\`${declared.param}: "${declared.values.join('" | "')}"\`` : `\`${declared.param}\``;
  return [
    { params: {}, access: declared.absent, when: null },
    { params: { [declared.param]: value }, access: declared.present, when: `with ${shown}` },
  ];
}

/** What the rule needs to know of a caller. */
export interface CallerProfile {
  role: Role;
  /** A `gw_test_` key. */
  sandbox: boolean;
}

/** Why a caller may not run an operation needing `access`, or null when they may. */
export function refusalFor(access: Access, caller: CallerProfile): "sandbox" | "role" | null {
  if ((access === "admin" || access === "admin-read") && caller.role !== "admin") return "role";
  // A leaked test key must be no more dangerous than a read-only one.
  if ((access === "admin" || access === "member-write") && caller.sandbox) return "sandbox";
  return null;
}

export const refusal = (access: Access, identity: Identity) => refusalFor(access, { role: identity.role, sandbox: isSandbox(identity) });

/** Changes nothing: a session may send it without `Origin` (a cross-site page cannot read the answer). */
export const isReadAccess = (access: Access): boolean => access === "read" || access === "admin-read";
