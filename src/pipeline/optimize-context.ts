/**
 * Stage 5b, before scanning: the context optimizer, opt-in per organization (preference
 * `contextOptimizer`) or per call (`x-gw-optimize: on`; `off` skips one call). The text
 * of each turn is normalized, its repeated paragraphs and boilerplate dropped (never
 * inside code blocks or quoted lines), then repeated turns are dropped. What comes out
 * is what the scanner reads and the provider is sent. Tool results, tool calls and
 * media are left as they are: they are data, tied to calls by id.
 *
 * Only the figures are kept (an ETL document row: token counts and transformation
 * names), never text, once the call is answered; the caller sees
 * `x-gw-optimized-tokens: <before>-><after>`.
 */
import { newId } from "../domain/ids.ts";
import { badRequest } from "../lib/errors.ts";
import { countTextTokens } from "../lib/token-estimate.ts";
import { chunkEmbeddingInput } from "../services/context-optimizer/embeddings-chunks.ts";
import { dedupeMessages, optimizeText, type Transformation } from "../services/context-optimizer/optimize.ts";
import type { EtlDocument } from "../domain/types.ts";
import type { Target } from "../providers/target.ts";
import type { CallInput, CallOutcome } from "./call-types.ts";
import type { SpendDeps } from "./reserve-spend.ts";

/** Where ETL figures go (the Store in production). It must not reject: it runs after the provider answered. */
export interface EtlRecorder {
  recordEtlDocument(d: EtlDocument): Promise<void>;
}

export type OptimizeFormat = "chat" | "messages" | "responses";

type Json = Record<string, unknown>;

export interface OptimizedBody {
  /** A copy with the optimized texts; the caller's object is never changed. */
  body: Json;
  originalTokens: number;
  optimizedTokens: number;
  transformations: Transformation[];
}

/** Whether this call is optimized: the header decides for one call, else the organization's preference. */
export function optimizerWanted(headers: Headers, preference: boolean): boolean {
  const raw = headers.get("x-gw-optimize");
  if (raw === null) return preference;
  const value = raw.trim().toLowerCase();
  if (value === "on") return true;
  if (value === "off") return false;
  throw badRequest('x-gw-optimize: must be "on" or "off"', { param: "x-gw-optimize" });
}

/** Turns whose text is prose the optimizer may rewrite; tool results are data. */
const PROSE_ROLES = new Set(["system", "developer", "user", "assistant"]);

interface Tally {
  before: number;
  after: number;
  applied: Set<Transformation>;
}

function optimizeString(text: string, t: Tally): string {
  const r = optimizeText(text);
  t.before += r.originalTokens;
  t.after += r.optimizedTokens;
  for (const x of r.transformations) t.applied.add(x);
  return r.text;
}

/** The content parts that are prose: chat's and messages' `text`, the Responses API's input and output text. */
const TEXT_PARTS = new Set(["text", "input_text", "output_text"]);

/** Text parts rewritten, everything else kept as it is. */
function optimizeContent(content: unknown, t: Tally): unknown {
  if (typeof content === "string") return optimizeString(content, t);
  if (!Array.isArray(content)) return content;
  return content.map((part) => {
    const p = part as Json | null;
    if (!p || typeof p !== "object" || !TEXT_PARTS.has(p.type as string) || typeof p.text !== "string") return part;
    return { ...p, text: optimizeString(p.text, t) };
  });
}

function optimizeTurn(turn: unknown, t: Tally): unknown {
  const m = turn as Json | null;
  if (!m || typeof m !== "object" || !PROSE_ROLES.has(m.role as string) || m.content === undefined) return turn;
  return { ...m, content: optimizeContent(m.content, t) };
}

/** The tokens of a dropped turn's text, as counted after optimizing it. */
function turnTokens(turn: unknown): number {
  const content = (turn as Json).content;
  return typeof content === "string" ? countTextTokens(content) : 0;
}

/** Where each format keeps its system prompt and its turns. */
const LAYOUT: Record<OptimizeFormat, { system?: string; turns: string }> = {
  chat: { turns: "messages" },
  messages: { system: "system", turns: "messages" },
  responses: { system: "instructions", turns: "input" },
};

/** Optimizes the turns and the system prompt (messages' `system`, Responses' `instructions`) of a request body. */
export function optimizeBody(body: Json, format: OptimizeFormat): OptimizedBody {
  const t: Tally = { before: 0, after: 0, applied: new Set() };
  const out: Json = { ...body };
  const { system, turns: turnsAt } = LAYOUT[format];
  if (system !== undefined && body[system] !== undefined && body[system] !== null) out[system] = optimizeContent(body[system], t);
  const given = body[turnsAt];
  // The Responses API's `input` may be the caller's one turn as a string.
  if (typeof given === "string") out[turnsAt] = optimizeString(given, t);
  if (Array.isArray(given)) {
    const turns = given.map((m) => optimizeTurn(m, t)) as { role?: unknown; content?: unknown }[];
    const kept = dedupeMessages(turns);
    if (kept.length < turns.length) {
      t.applied.add("deduplication");
      const keptSet = new Set(kept);
      for (const turn of turns) if (!keptSet.has(turn)) t.after -= turnTokens(turn);
    }
    out[turnsAt] = kept;
  }
  return { body: out, originalTokens: t.before, optimizedTokens: t.after, transformations: [...t.applied] };
}

/** `x-gw-optimized-tokens` value. */
export const optimizedHeader = (o: OptimizedBody): string => `${o.originalTokens}->${o.optimizedTokens}`;

/**
 * The figures of one optimized call as an ETL document row. Saved tokens are priced at
 * the input price of the model the call is planned for (dollars per million tokens is
 * micro-dollars per token).
 */
export function etlDocumentOf(o: OptimizedBody, orgId: string, inputPerMTok: number, now: number): EtlDocument {
  const saved = Math.max(0, o.originalTokens - o.optimizedTokens);
  return {
    id: newId("doc"),
    orgId,
    createdAt: now,
    originalTokens: o.originalTokens,
    optimizedTokens: o.optimizedTokens,
    costSavingsMicros: Math.round(saved * inputPerMTok),
    transformations: o.transformations,
  };
}

export interface OptimizeDeps {
  spend: Pick<SpendDeps, "settings" | "catalog">;
  etl?: EtlRecorder;
  now?: () => number;
}

/** What the stage gives the call: the body to scan and send, and what to do once the call is answered. */
export interface ContextStage {
  /** False when the call is not optimized: the body is the caller's and there is nothing to settle. */
  changed: boolean;
  body: Json;
  /** Sets the stage's headers on the outcome and records its figures (nothing when the call was not optimized). */
  settle<O extends CallOutcome>(outcome: O): Promise<O>;
}

const untouched = (body: Json): ContextStage => ({ changed: false, body, settle: async (o) => o });

/**
 * The figures are recorded once the call is answered, so a call refused before it went
 * out (a bad request, the scanner, a cap) leaves nothing behind.
 */
function settled(deps: OptimizeDeps, orgId: string, target: Target, o: OptimizedBody, extra?: (out: CallOutcome) => void): ContextStage {
  return {
    changed: true,
    body: o.body,
    async settle(outcome) {
      outcome.optimizedTokens = optimizedHeader(o);
      extra?.(outcome);
      const price = deps.spend.catalog.price(target.model, target.kind).inputPerMTok;
      await deps.etl?.recordEtlDocument(etlDocumentOf(o, orgId, price, (deps.now ?? Date.now)()));
      return outcome;
    },
  };
}

async function wanted(deps: OptimizeDeps, input: CallInput): Promise<boolean> {
  const settings = await deps.spend.settings.get(input.scope.identity.organization.id);
  return optimizerWanted(input.headers, settings.contextOptimizer);
}

/** The stage for chat, messages and Responses calls. */
export async function optimizeContext(
  deps: OptimizeDeps,
  input: CallInput,
  body: Json,
  format: OptimizeFormat,
  target: Target,
): Promise<ContextStage> {
  if (!(await wanted(deps, input))) return untouched(body);
  return settled(deps, input.scope.identity.organization.id, target, optimizeBody(body, format));
}

/** The providers' own limit on inputs in one embeddings request. */
const MAX_EMBEDDING_INPUTS = 2048;
/**
 * Chunks are cut at this share of the model's context: the count here is o200k's, and a
 * provider's own tokenizer may count the same text a little higher.
 */
const CONTEXT_MARGIN = 0.9;

/**
 * The stage for embeddings calls: a text input over the model's context is split into
 * inputs that fit, so the answer holds one embedding per chunk, in order, and
 * `x-gw-embedding-chunks` says how many each input became. A model whose context the
 * catalog does not know is sent as written.
 */
export async function optimizeEmbeddings(deps: OptimizeDeps, input: CallInput, body: Json, target: Target): Promise<ContextStage> {
  if (!(await wanted(deps, input))) return untouched(body);
  const context = target.catalogModel?.contextWindow;
  if (!context) return untouched(body);
  const r = chunkEmbeddingInput(body.input, Math.floor(context * CONTEXT_MARGIN));
  if (!r) return untouched(body);
  const count = Array.isArray(r.input) ? r.input.length : 1;
  if (count > MAX_EMBEDDING_INPUTS)
    throw badRequest(`input: chunked to fit the model's context it would be ${count} inputs, over the limit of ${MAX_EMBEDDING_INPUTS}`, {
      param: "input",
    });
  const o: OptimizedBody = {
    body: r.chunked ? { ...body, input: r.input } : body,
    originalTokens: r.originalTokens,
    optimizedTokens: r.optimizedTokens,
    transformations: r.chunked ? ["chunking"] : [],
  };
  return settled(deps, input.scope.identity.organization.id, target, o, (out) => {
    if (r.chunked && out.type === "json") out.embeddingChunks = r.chunksPerInput.join(",");
  });
}
