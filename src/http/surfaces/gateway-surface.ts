/** `POST /api/v1/gateway`: decode the envelope, admit the caller, dispatch the operation. */
import { Type } from "@sinclair/typebox";
import { type BodyLimits, readJsonObject, type RequestTimer } from "../../lib/json-body.ts";
import { compileValidator } from "../../lib/validator.ts";
import { PlainName } from "../../schemas/names.ts";
import type { OperationDeps, OperationRegistry } from "../../ops/registry.ts";
import { actorOf } from "../../domain/identity.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";
import { callInput } from "../call-response.ts";
import { userAgentOf } from "../user-agent.ts";

const GatewayRequest = compileValidator(
  Type.Object({
    operation: Type.String({ minLength: 1, maxLength: 200 }),
    // Checked against the operation's own schema after dispatch finds it.
    params: Type.Optional(Type.Unknown()),
    context: Type.Optional(
      Type.Object({
        applicationId: Type.Optional(PlainName(200, 0)),
        scope: Type.Optional(Type.Union([Type.Literal("user"), Type.Literal("organization")])),
      }),
    ),
  }),
);

export interface GatewaySurfaceDeps {
  operations: OperationRegistry;
  services: OperationDeps;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

/** Whether a session call without Origin may run this operation: only one that reads. */
export function gatewayReadOnly(deps: GatewaySurfaceDeps) {
  return async (request: Request, server: RequestTimer | null): Promise<boolean> => {
    const body = GatewayRequest.parse(await readJsonObject(request, deps.body, server));
    return deps.operations.readOnly(body.operation, body.params, body.context);
  };
}

export function gatewayHandler(deps: GatewaySurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const body = GatewayRequest.parse(await readJsonObject(scope.request, deps.body, scope.server));
    const responseHeaders: Record<string, string> = {};
    const call = callInput(scope, identity);
    // The envelope's context names the application when given; the header otherwise.
    if (body.context?.applicationId) call.scope.applicationId = body.context.applicationId;
    const data = await deps.operations.dispatch(
      {
        identity,
        actor: actorOf(identity, scope.ip, userAgentOf(scope.request)),
        deps: deps.services,
        call,
        requestId: scope.requestId,
        context: body.context ?? {},
        responseHeaders,
      },
      body.operation,
      body.params,
    );
    return json({ success: true, data, error: null }, 200, responseHeaders);
  };
}
