/**
 * The messages vendor's model list as it pages it: `GET /v1/models` answers
 * `{data: [{type: "model", id, display_name, created_at}], has_more, first_id, last_id}`,
 * `limit` items a page (20 unless asked, 1 to 1000), after the `after_id` cursor
 * (anthropics/anthropic-sdk-typescript, src/resources/models.ts `ModelListParams`; the
 * List Models API reference). A reader that does not ask for a large page gets 20. A base
 * URL under `/listing-<N>` lists N models (`listed-1` ... `listed-N`), so a reader's paging
 * past the largest page can be tested.
 */
import { messagesError } from "./vendor-errors.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

export function messagesModelList(search: URLSearchParams, ids: readonly string[]): Response {
  const asked = search.get("limit");
  const limit = asked === null ? DEFAULT_LIMIT : Number(asked);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return messagesError(400, `limit: Input should be an integer from 1 to ${MAX_LIMIT}`);
  const after = search.get("after_id");
  const start = after === null ? 0 : ids.indexOf(after) + 1;
  const page = ids.slice(start, start + limit);
  return Response.json({
    data: page.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
    has_more: start + limit < ids.length,
    first_id: page[0] ?? null,
    last_id: page.at(-1) ?? null,
  });
}

const LISTING = /^\/listing-(\d{1,6})\//;

/** The ids the mock lists at this path: N made-up ones under `/listing-<N>`, else its own. */
export function listedIds(pathname: string, own: readonly string[]): readonly string[] {
  const n = LISTING.exec(pathname)?.[1];
  return n === undefined ? own : Array.from({ length: Number(n) }, (_, i) => `listed-${i + 1}`);
}
