/**
 * `POST /v1/messages/count_tokens` after admission: the model is resolved and
 * authorized (stages 4-5) and the prompt scanned (stage 6) as for a real call, so a
 * count can neither reach a provider the caller may not use nor carry what a call could
 * not. Then it is asked of the provider when its adapter can count (the vendor's own
 * endpoint), else counted here with the gateway's tokenizer (o200k, the one that prices
 * calls whose provider reports no usage) and marked as an estimate. A count costs the
 * provider nothing and is not charged or recorded as usage; the caller's rate bucket was
 * charged at admission.
 */
import { ApiError } from "../lib/errors.ts";
import { estimatePromptTokens } from "../lib/token-estimate.ts";
import { canCountTokens } from "../providers/adapter.ts";
import { servedBy } from "../providers/target.ts";
import { sendUpstream, upstreamFailure } from "../providers/upstream.ts";
import type { MessagesCountTokensRequest } from "../schemas/messages.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import { authorizeTarget } from "./authorize.ts";
import type { CallInput } from "./call-types.ts";
import type { ResolveDeps } from "./resolve-provider.ts";
import { callAdapter } from "./call-adapter.ts";
import { resolverFor } from "./sandbox-target.ts";
import { messagesTexts } from "./scan/request-texts.ts";
import { refuseRefusedToolServers } from "./tool-servers.ts";
import { scanCall } from "./scan-call.ts";
import type { ScanCache } from "./scan-cache.ts";
import type { ScanRecorder } from "../domain/scan-policy.ts";
import { secretValues } from "../providers/credentials.ts";
import { readTextUpTo } from "../lib/egress/bounded-body.ts";

/** A count is `{"input_tokens": N}`: an answer past this is not one, and the provider may be at a member's own address. */
export const MAX_COUNT_ANSWER_BYTES = 64 * 1024;

export interface CountTokensDeps {
  resolve: ResolveDeps;
  settings: OrgSettings;
  scans?: ScanRecorder;
  verdicts?: ScanCache;
  upstreamTimeoutMs: number;
}

export interface TokenCount {
  inputTokens: number;
  /** Counted by the gateway's tokenizer, not by the provider. */
  estimated: boolean;
  /** `provider/model` the count is for. */
  servedBy: string;
  /** The `x-gw-security` header. */
  security: string;
}

/** What the request would send, counted as the mock and the reservation count it: system, turns, tool definitions. */
function localCount(body: Record<string, unknown>): number {
  const system = body.system === undefined ? [] : [{ role: "system", content: body.system }];
  const tools = Array.isArray(body.tools) ? [{ role: "system", content: JSON.stringify(body.tools) }] : [];
  return estimatePromptTokens([...system, ...(body.messages as { content?: unknown }[]), ...tools]);
}

export async function countTokens(
  deps: CountTokensDeps,
  input: CallInput,
  request: MessagesCountTokensRequest & Record<string, unknown>,
): Promise<TokenCount> {
  const { identity } = input.scope;
  // The vendor's count takes `mcp_servers` as a call does (and connects to list their tools).
  await refuseRefusedToolServers(request);
  const target = await resolverFor(identity)(deps.resolve, identity, request.model, input.headers);
  authorizeTarget(identity, target);
  const adapter = callAdapter(target);
  if (adapter.wire !== "messages") {
    throw new ApiError(
      400,
      "invalid_request",
      `${target.model} is served by ${target.providerName} in the chat-completions format; count_tokens is for messages-format models.`,
      { param: "model" },
    );
  }
  const scanned = await scanCall(deps, input, request, messagesTexts);
  const served = servedBy(target);
  const estimate = (): TokenCount => ({
    inputTokens: localCount(scanned.body),
    estimated: true,
    servedBy: served,
    security: scanned.header,
  });
  // The simulator (a sandbox key's adapter) counts nothing itself, as a server without the endpoint.
  if (!canCountTokens(adapter)) return estimate();
  const up = await sendUpstream(adapter.countTokensRequest(target, scanned.body, { stream: false, headers: input.headers }), {
    caller: input.caller,
    timeoutMs: deps.upstreamTimeoutMs,
    providerName: target.providerName,
  });
  try {
    // A server that speaks the messages format without this endpoint: counted here instead.
    if (up.response.status === 404) {
      await up.response.body?.cancel();
      return estimate();
    }
    if (!up.response.ok) throw await upstreamFailure(up.response, target.providerName, secretValues(target.credentials));
    const body = (await readTextUpTo(up.response, MAX_COUNT_ANSWER_BYTES)
      .then((text) => JSON.parse(text))
      .catch(() => null)) as { input_tokens?: unknown } | null;
    if (typeof body?.input_tokens !== "number")
      throw new ApiError(502, "provider_error", `${target.providerName} answered count_tokens without input_tokens.`);
    return { inputTokens: body.input_tokens, estimated: false, servedBy: served, security: scanned.header };
  } finally {
    up.done();
  }
}
