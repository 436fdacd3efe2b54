/**
 * `POST /api/user/etl/optimize` (a document in, the optimized text and its figures
 * out; only the figures are kept) and `GET /api/user/etl-metrics` (the organization's
 * sums). Any member of the organization, by API key or session.
 */
import { Type } from "@sinclair/typebox";
import { type BodyLimits, readJsonObject } from "../../lib/json-body.ts";
import { compileValidator } from "../../lib/validator.ts";
import type { Catalog } from "../../providers/catalog/catalog.ts";
import { etlMetrics, optimizeDocument } from "../../services/context-optimizer/etl-service.ts";
import type { Store } from "../../store/store.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export const OptimizeRequest = Type.Object(
  {
    document: Type.String({ minLength: 1 }),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    maxChunkTokens: Type.Optional(Type.Integer({ minimum: 16, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

const OptimizeBody = compileValidator(OptimizeRequest);

export interface EtlSurfaceDeps {
  store: Store;
  catalog: Catalog;
  now: () => number;
  /** The request body's size and time limits. */
  body: BodyLimits;
}

export function etlOptimizeHandler(deps: EtlSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    const body = OptimizeBody.parse(await readJsonObject(scope.request, deps.body, scope.server));
    return json(await optimizeDocument(deps.store, deps.catalog, identity.organization.id, body, deps.now()));
  };
}

export function etlMetricsHandler(deps: EtlSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { identity } = scope;
    return json(await etlMetrics(deps.store, identity.organization.id));
  };
}
