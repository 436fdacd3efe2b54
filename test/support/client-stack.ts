/**
 * The end-to-end setup most client tests share, for one test file: the mock provider,
 * an organization and the gateway (stack.ts), an OpenAI and an Anthropic configuration
 * at the mock (organization scope; more may be given), and the official clients with
 * the organization's key. Started before the file's first test, stopped after its
 * last. Read its fields inside tests.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { InitResult, RunningMock } from "./gateway-process.ts";
import type { GatewayUnderTest } from "./in-process.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "./provider-configs.ts";
import { type StackOptions, stackPerFile } from "./stack.ts";

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
  const stack = stackPerFile({
    ...opts,
    providers: [
      { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456", ...opts.openai },
      { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-vendor-test-123456", ...opts.anthropic },
      ...(opts.providers ?? []),
    ],
  });
  // Made at the first read, once the stack runs: one of each for the whole file.
  let clients: { openai: OpenAI; anthropic: Anthropic } | null = null;
  const clientsOf = () =>
    (clients ??= {
      openai: new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 }),
      anthropic: new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 }),
    });
  return {
    get gw() {
      return stack.gw;
    },
    get mock() {
      return stack.mock;
    },
    get org() {
      return stack.org;
    },
    get openai() {
      return clientsOf().openai;
    },
    get anthropic() {
      return clientsOf().anthropic;
    },
    lastUpstreamBody: async () => (await stack.mock.requests()).at(-1)?.body,
  };
}
