/**
 * The end-to-end setup most client tests share, for one test file: the mock provider,
 * an organization and the gateway (stack.ts), an OpenAI and an Anthropic configuration
 * at the mock (organization scope; more may be given), and the official clients with
 * the organization's key. Started before the file's first test, stopped after its
 * last. Read its fields inside tests.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll } from "bun:test";
import OpenAI from "openai";
import type { InitResult, RunningMock } from "./gateway-process.ts";
import type { GatewayUnderTest } from "./in-process.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "./provider-configs.ts";
import { type StackOptions, startStack, stopStack } from "./stack.ts";

export interface ClientStack {
  readonly gw: GatewayUnderTest;
  readonly mock: RunningMock;
  readonly org: InitResult;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
  /** The body of the last request that reached the mock. */
  // biome-ignore lint/suspicious/noExplicitAny: the mock records bodies as JSON of any shape
  lastUpstreamBody(): Promise<any>;
}

export interface ClientStackOptions extends StackOptions {
  /** The OpenAI configuration's provider key and name (default: the kind's name). */
  openai?: { apiKey?: string; name?: string };
  anthropic?: { apiKey?: string; name?: string };
  // `providers`: further configurations at the mock, created after those two.
}

export function clientStackPerFile(opts: ClientStackOptions = {}): ClientStack {
  let s: { gw: GatewayUnderTest; mock: RunningMock; org: InitResult; openai: OpenAI; anthropic: Anthropic } | null = null;
  beforeAll(async () => {
    const { mock, org, gw } = await startStack({
      ...opts,
      providers: [
        { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456", ...opts.openai },
        { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-vendor-test-123456", ...opts.anthropic },
        ...(opts.providers ?? []),
      ],
    });
    s = {
      gw,
      mock,
      org,
      openai: new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 }),
      anthropic: new Anthropic({ baseURL: gw.url, apiKey: org.apiKey, maxRetries: 0 }),
    };
  });
  afterAll(async () => {
    if (s) await stopStack(s);
  });
  const started = () => {
    if (!s) throw new Error("this file's stack is not started yet: read it inside a test");
    return s;
  };
  return {
    get gw() {
      return started().gw;
    },
    get mock() {
      return started().mock;
    },
    get org() {
      return started().org;
    },
    get openai() {
      return started().openai;
    },
    get anthropic() {
      return started().anthropic;
    },
    lastUpstreamBody: async () => (await started().mock.requests()).at(-1)?.body,
  };
}
