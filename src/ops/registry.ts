/**
 * The gateway operations endpoint as a registry: each operation declares its id, a
 * TypeBox schema for `params` (compiled once) and its required `access` (access.ts).
 * Categories live in their own modules and register here; dispatch decides access from
 * the declaration alone (refusals audited), then validates and runs the operation.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { ApiError } from "../lib/errors.ts";
import { compileValidator, type Validator } from "../lib/validator.ts";
import { recordAudit } from "../services/audit.ts";
import type { CallInput, ModelCalls } from "../pipeline/model-call.ts";
import type { Actor, Identity, ProviderSide } from "../domain/identity.ts";
import type { ModelList } from "../services/model-list.ts";
import type { ProviderDeps } from "../services/providers.ts";
import { type Access, type AccessDeclaration, accessFor, isReadAccess, refusal } from "./access.ts";
import { checkContextSide, type ContextScope, onSide, withContextScope } from "./context-scope.ts";
import type { ProviderRateUsage } from "../state/provider-rate-usage.ts";
import type { ProviderDirectory } from "../state/provider-directory.ts";
import type { ProviderHealth } from "../state/provider-health.ts";

/**
 * A sandbox key exists to build and test integrations without spending or leaking
 * anything; letting it change anything or reach a provider would make a leaked test
 * key as dangerous as a live one.
 */
function sandboxRefused(operationId: string): ApiError {
  return new ApiError(
    403,
    "forbidden",
    `Operation ${operationId} changes something or reaches a provider; sandbox (gw_test_) keys may read and make simulated calls only. Use a live key or the dashboard.`,
  );
}

/** Everything operations may use: the services, and the model-call pipeline for `ai.*`. */
export interface OperationDeps extends ProviderDeps {
  calls: ModelCalls;
  models: ModelList;
  /** What each provider configuration was sent and reported (rate-limit status). */
  rateUsage: ProviderRateUsage;
  /** This node's view of each provider configuration (`ai.health`), and the organizations' live providers. */
  health: ProviderHealth;
  providerDirectory: ProviderDirectory;
}

export interface OperationContext {
  identity: Identity;
  actor: Actor;
  deps: OperationDeps;
  /** The call as the pipeline sees it (for operations that reach a provider). */
  call: CallInput;
  requestId: string;
  /** The request's optional `context` (applicationId, scope; context-scope.ts says what scope does). */
  context: { applicationId?: string; scope?: ProviderSide };
  /**
   * Headers the operation adds to its success response (`ai.proxy`: `x-gw-provider`,
   * `x-gw-security`), so the gateway envelope reports a model call as the other surfaces do.
   */
  responseHeaders?: Record<string, string>;
}

export interface Operation<S extends TSchema = TSchema> {
  id: string;
  summary: string;
  params: S;
  /** Who may run it (access.ts, docs/security.md); required, so no operation is open by omission. */
  access: AccessDeclaration;
  /** What the request's `context.scope` does here (context-scope.ts); absent: nothing. */
  contextScope?: ContextScope;
  run(ctx: OperationContext, params: Static<S>): Promise<unknown>;
}

/** Keeps the params type tied to the schema at the definition site. */
export function defineOperation<S extends TSchema>(op: Operation<S>): Operation<S> {
  return op;
}

interface Registered {
  op: Operation;
  params: Validator<TSchema>;
}

export class OperationRegistry {
  private readonly ops = new Map<string, Registered>();

  register(...ops: Operation<any>[]): this {
    for (const op of ops) {
      if (this.ops.has(op.id)) throw new Error(`operation ${op.id} registered twice`);
      this.ops.set(op.id, { op, params: compileValidator(op.params) });
    }
    return this;
  }

  /**
   * The operation changes nothing with these params, so a session may send it without
   * Origin (unknown operations are not read-only).
   */
  readOnly(operationId: string, params: unknown, context: OperationContext["context"] = {}): boolean {
    const op = this.ops.get(operationId)?.op;
    return op !== undefined && isReadAccess(accessFor(op.access, withContextScope(op.contextScope, context.scope, params)));
  }

  /** The operation's declaration (for the access table in docs/security.md and its test). */
  declaredAccess(operationId: string): AccessDeclaration | undefined {
    return this.ops.get(operationId)?.op.access;
  }

  /** What `context.scope` does for the operation (the access table notes where it stands for a param). */
  contextScope(operationId: string): ContextScope | undefined {
    return this.ops.get(operationId)?.op.contextScope;
  }

  ids(): string[] {
    return [...this.ops.keys()].sort();
  }

  /** Each operation as the interface description lists it: id, summary, params schema, and `admin` when it always needs that role. */
  described(): { id: string; summary: string; params: TSchema; role?: "admin" }[] {
    return this.ids().map((id) => {
      const { op } = this.ops.get(id)!;
      return {
        id,
        summary: op.summary,
        params: op.params,
        ...(op.access === "admin" || op.access === "admin-read" ? { role: "admin" as const } : {}),
      };
    });
  }

  async dispatch(ctx: OperationContext, operationId: string, rawParams: unknown): Promise<unknown> {
    const entry = this.ops.get(operationId);
    if (!entry) {
      throw new ApiError(
        400,
        "invalid_request",
        `Unknown operation "${operationId.slice(0, 100)}". Known operations: ${this.ids().join(", ")}.`,
        { param: "operation" },
      );
    }
    const takes = entry.op.contextScope;
    const side = ctx.context.scope;
    // The context stands for the operation's own param before anything is decided: the access decision sees it.
    const given = withContextScope(takes, side, rawParams);
    await this.admit(ctx, operationId, accessFor(entry.op.access, given));
    checkContextSide(takes, side, ctx.identity, rawParams);
    const params = entry.params.parse(given ?? {}, "params");
    if (takes !== "providers" || side === undefined) return entry.op.run(ctx, params);
    // Every place the call picks providers reads the side from its identity (services/provider-access.ts).
    const identity = onSide(ctx.identity, side);
    return entry.op.run({ ...ctx, identity, call: { ...ctx.call, scope: { ...ctx.call.scope, identity } } }, params);
  }

  /** Refuses (403, audited) a caller the declared access does not admit; before params are read, so a refusal reveals nothing of them. */
  private async admit(ctx: OperationContext, operationId: string, access: Access): Promise<void> {
    const why = refusal(access, ctx.identity);
    if (why === null) return;
    await recordAudit(
      ctx.deps.store,
      ctx.identity.organization.id,
      ctx.actor,
      "access.denied",
      operationId,
      { access, reason: why, ...(why === "role" ? { requiredRole: "admin" } : {}) },
      ctx.deps.now(),
    );
    if (why === "sandbox") throw sandboxRefused(operationId);
    throw new ApiError(403, "forbidden", `Operation ${operationId} requires the organization role admin.`);
  }
}
