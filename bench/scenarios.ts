/**
 * What the suite measures: each scenario is one request shape at one concurrency,
 * run against every target it names. Bodies are the same bytes for every target, so
 * the only difference between rows is what sits between the load and the mock.
 */
import type { LoadRequest } from "./lib/load.ts";

/** `shared`: the gateway on Postgres and Redis (private instances), the scale-out configuration. */
export type TargetKind = "direct" | "bare" | "gateway" | "binary" | "limited" | "shared";

/** The credentials a target is called with: a gateway key for gateways, a provider-style key for the rest. */
export interface Credentials {
  live: string;
  test: string;
}

export interface Scenario {
  id: string;
  title: string;
  connections: number;
  /** `load`: autocannon; `stream-timing`: one connection reading streams one after another. */
  mode: "load" | "stream-timing";
  /** Which kinds of target run it; the gateway kinds always include the binary when it is built. */
  targets: TargetKind[];
  expectStatus: number;
  /** The warm-up may see other statuses (the rate limit's budget is spent there). */
  warmupAnyStatus?: boolean;
  request(c: Credentials): LoadRequest;
  /** The model the provider answers as, when the request names none (`gateway/auto`): the in-process harness captures its answer for it. */
  answeredModel?: string;
}

const SENTENCES = [
  "The quarterly report shows steady growth in the northern region.",
  "Please summarize the attached meeting notes in three short bullet points.",
  "Our team moved the deployment to Thursday because the database migration took longer than planned.",
  "Explain how a token bucket rate limiter refills over time, with a small example.",
  "The customer asked whether the new plan includes priority support and more storage.",
  "Write a friendly reply that thanks them and suggests a call next week.",
];

/** Everyday English of about `bytes` bytes: what the scanner reads on a normal call. */
export function prose(bytes: number): string {
  let out = "";
  for (let i = 0; out.length < bytes; i++) out += `${SENTENCES[i % SENTENCES.length]} `;
  return out.slice(0, bytes);
}

/** The sentences' words, lower case and without punctuation: what `variedProse` draws from. */
const VOCABULARY = SENTENCES.join(" ").replace(/[.,]/g, "").toLowerCase().split(" ");

/**
 * Everyday English that never repeats itself: the sentences' words in an order a
 * seeded generator picks, a sentence ending every twelve words or so. What the
 * scanner's micro-benchmark reads, so the processor cannot learn the text by heart.
 */
export function variedProse(bytes: number, seed: number): string {
  let s = seed >>> 0 || 1;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let out = "";
  let capital = true;
  while (out.length < bytes) {
    const word = VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    out += capital ? word[0]?.toUpperCase() + word.slice(1) : word;
    capital = next() < 1 / 12;
    out += capital ? ". " : next() < 0.05 ? ", " : " ";
  }
  return out.slice(0, bytes);
}

const json = (body: unknown) => JSON.stringify(body);
const chatHeaders = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const messagesHeaders = (key: string) => ({ "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" });
const chat = (key: string, body: object): LoadRequest => ({
  method: "POST",
  path: "/v1/chat/completions",
  headers: chatHeaders(key),
  body: json(body),
});
const messages = (key: string, body: object): LoadRequest => ({
  method: "POST",
  path: "/v1/messages",
  headers: messagesHeaders(key),
  body: json(body),
});

/**
 * The call the policy share is about (issue 5: "for a 2 KB prompt"): the body
 * bench/policy.bench.ts runs the policy stages on, and the gateway serves in the
 * `chat-2k-50` scenario whose CPU per request the share divides by.
 */
export const POLICY_CALL_BODY = {
  model: "gpt-4o",
  max_tokens: 200,
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: prose(2048) },
  ],
};

const PROMPT_1K = prose(1024);
/** The 1 KB prompt made unique by a leading number: the same text for the scanner's detectors, never seen before. */
const numberedPrompt = (n: number) => `Request ${n}: ${PROMPT_1K.slice(0, 1024 - 11 - String(n).length)}`;
/**
 * A chat client's sixth call: the system prompt and four earlier turns of 1 KB (two
 * asked, two answered) resent as on every turn, then a new 1 KB question.
 */
const EARLIER_TURNS = [
  { role: "system", content: `You are the support assistant of a storage company. ${prose(400)}` },
  { role: "user", content: variedProse(1024, 1) },
  { role: "assistant", content: variedProse(1024, 2) },
  { role: "user", content: variedProse(1024, 3) },
  { role: "assistant", content: variedProse(1024, 4) },
];
const conversation = (n: number) => ({
  model: "gpt-4o",
  max_tokens: 100,
  messages: [...EARLIER_TURNS, { role: "user", content: numberedPrompt(n) }],
});
const PROMPT_16K = prose(16 * 1024);
const ALL: TargetKind[] = ["direct", "bare", "gateway", "binary"];
const GATEWAYS: TargetKind[] = ["gateway", "binary"];
/** Where shared state's added cost is read: beside the embedded gateway on the same calls. */
const WITH_SHARED: TargetKind[] = [...ALL, "shared"];

export const SCENARIOS: Scenario[] = [
  {
    id: "chat-1k-50",
    title: "chat, 1 KB prompt, 50 connections",
    connections: 50,
    mode: "load",
    targets: WITH_SHARED,
    expectStatus: 200,
    request: (c) => chat(c.live, { model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    // Beside chat-1k-50, whose prompt is the same on every call: each call's prompt is new, so nothing kept per text is met.
    id: "chat-1k-unique-50",
    title: "chat, 1 KB prompt new on every call, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => ({
      ...chat(c.live, { model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: numberedPrompt(0) }] }),
      bodyAt: (n) => json({ model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: numberedPrompt(n) }] }),
    }),
  },
  {
    // A conversation resent every turn: earlier turns and the system prompt repeat, the last turn is new.
    id: "chat-turns-50",
    title: "chat, system prompt and 4 earlier 1 KB turns resent + a new 1 KB turn, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => ({ ...chat(c.live, conversation(0)), bodyAt: (n) => json(conversation(n)) }),
  },
  {
    id: "chat-1k-1",
    title: "chat, 1 KB prompt, 1 connection",
    connections: 1,
    mode: "load",
    targets: WITH_SHARED,
    expectStatus: 200,
    request: (c) => chat(c.live, { model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    // Beside chat-1k-50: the same call routed by cost among the openai and anthropic configurations'
    // catalog models. Cost picks an openai model, so the difference is the routing alone (no translation).
    id: "chat-auto-1k-50",
    title: "chat, gateway/auto (cost), 1 KB prompt, 50 connections",
    connections: 50,
    mode: "load",
    targets: GATEWAYS,
    expectStatus: 200,
    answeredModel: "gpt-5-nano",
    request: (c) => ({
      ...chat(c.live, { model: "gateway/auto", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
      headers: { ...chatHeaders(c.live), "x-gw-route": "cost" },
    }),
  },
  {
    id: "chat-16k-50",
    title: "chat, 16 KB prompt, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => chat(c.live, { model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: PROMPT_16K }] }),
  },
  {
    id: "chat-2k-50",
    title: "chat, 2 KB prompt (the policy share's call), 50 connections",
    connections: 50,
    mode: "load",
    targets: GATEWAYS,
    expectStatus: 200,
    request: (c) => chat(c.live, POLICY_CALL_BODY),
  },
  {
    id: "stream-50",
    title: "chat stream, 20 chunks, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => chat(c.live, { model: "gpt-4o", stream: true, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "stream-1",
    title: "chat stream, 20 chunks over 100 ms, 1 connection",
    connections: 1,
    mode: "stream-timing",
    targets: ALL,
    expectStatus: 200,
    // `slow-100` makes the mock spread its answer over 100 ms, so buffering would show.
    request: (c) => chat(c.live, { model: "openai/slow-100", stream: true, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "messages-50",
    title: "messages, 1 KB prompt, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => messages(c.live, { model: "claude-haiku-4-5", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "messages-stream-50",
    title: "messages stream, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) =>
      messages(c.live, { model: "claude-haiku-4-5", max_tokens: 100, stream: true, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "translated-50",
    title: "chat translated to messages, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => chat(c.live, { model: "claude-haiku-4-5", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "embeddings-50",
    title: "embeddings, 1 KB input, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => ({
      method: "POST",
      path: "/v1/embeddings",
      headers: chatHeaders(c.live),
      body: json({ model: "text-embedding-3-small", input: PROMPT_1K }),
    }),
  },
  {
    id: "models-50",
    title: "GET /v1/models, 50 connections",
    connections: 50,
    mode: "load",
    targets: ALL,
    expectStatus: 200,
    request: (c) => ({ method: "GET", path: "/v1/models", headers: { authorization: `Bearer ${c.live}` } }),
  },
  {
    id: "sandbox-50",
    title: "chat, 1 KB, sandbox key (every check, no provider), 50 connections",
    connections: 50,
    mode: "load",
    targets: GATEWAYS,
    expectStatus: 200,
    request: (c) => chat(c.test, { model: "gpt-4o", max_tokens: 100, messages: [{ role: "user", content: PROMPT_1K }] }),
  },
  {
    id: "unauthorized-50",
    title: "401, bad key, 50 connections",
    connections: 50,
    mode: "load",
    targets: GATEWAYS,
    expectStatus: 401,
    request: () =>
      chat("gw_live_0000000000000000000000000000000000000000", { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  },
  {
    id: "rate-limited-50",
    title: "429, rate-limited key, 50 connections",
    connections: 50,
    mode: "load",
    targets: ["limited"],
    expectStatus: 429,
    warmupAnyStatus: true,
    request: (c) => chat(c.live, { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  },
];
