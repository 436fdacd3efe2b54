/**
 * `GET /v1/models` and `GET /v1/models/{id}` for both official clients: the OpenAI
 * shape by default, the Anthropic shape (`type: "model"`, `display_name`,
 * `created_at`, cursor pagination) when the request carries `anthropic-version` or
 * `x-api-key`, which only messages-format clients send. A model the caller may not use
 * is a 404, the same as one that does not exist, so the answer reveals nothing of
 * other organizations' providers.
 */
import { ApiError, badRequest } from "../../lib/errors.ts";
import type { ListedModel, ModelList } from "../../services/model-list.ts";
import type { Surface } from "../error-envelopes.ts";
import { json } from "../json-response.ts";
import type { AdmittedScope } from "../request-scope.ts";

export interface ModelsSurfaceDeps {
  models: ModelList;
}

/** Anthropic's clients send their version header (and usually their key as `x-api-key`); OpenAI's never do. */
export function asksForMessagesShape(request: Request): boolean {
  return request.headers.has("anthropic-version") || request.headers.has("x-api-key");
}

export const modelsSurfaceOf = (request: Request): Surface => (asksForMessagesShape(request) ? "messages" : "openai");

function anthropicModel(m: ListedModel) {
  return { type: "model", id: m.id, display_name: m.id, created_at: new Date(m.created * 1000).toISOString() };
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Anthropic's cursor pagination over the list: `after_id`/`before_id` name a model of the list, `limit` from 1 to 1000. */
function anthropicPage(all: ListedModel[], query: URLSearchParams) {
  const rawLimit = query.get("limit");
  const limit = rawLimit === null ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw badRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`, { param: "limit" });
  const cursor = (name: "after_id" | "before_id") => {
    const id = query.get(name);
    if (id === null) return null;
    const at = all.findIndex((m) => m.id === id);
    if (at < 0) throw badRequest(`${name} must be the id of a model in the list`, { param: name });
    return at;
  };
  const after = cursor("after_id");
  const before = cursor("before_id");
  let page: ListedModel[];
  let hasMore: boolean;
  if (before !== null) {
    const start = Math.max(0, before - limit);
    page = all.slice(start, before);
    hasMore = start > 0;
  } else {
    const start = after === null ? 0 : after + 1;
    page = all.slice(start, start + limit);
    hasMore = start + limit < all.length;
  }
  const data = page.map(anthropicModel);
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

export function modelsHandler(deps: ModelsSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const all = await deps.models.list(scope.identity);
    if (asksForMessagesShape(scope.request)) return json(anthropicPage(all, new URL(scope.request.url).searchParams));
    return json({ object: "list", data: all });
  };
}

const PREFIX = "/v1/models/";

export function modelHandler(deps: ModelsSurfaceDeps) {
  return async (scope: AdmittedScope): Promise<Response> => {
    const { pathname } = new URL(scope.request.url);
    let id: string;
    try {
      id = decodeURIComponent(pathname.slice(PREFIX.length));
    } catch {
      throw badRequest("model id: not a valid percent-encoded path segment", { param: "model" });
    }
    const found = (await deps.models.list(scope.identity)).find((m) => m.id === id);
    if (!found)
      throw new ApiError(
        404,
        "model_not_found",
        `No model ${JSON.stringify(id)} among the models this key may use; GET /v1/models lists them.`,
        { param: "model" },
      );
    return json(asksForMessagesShape(scope.request) ? anthropicModel(found) : found);
  };
}
