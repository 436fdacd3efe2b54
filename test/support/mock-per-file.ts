/**
 * The mock provider for one test file, in this process on loopback: started before the
 * file's first test with private addresses allowed (the operator setting the gateway's
 * own tests use), stopped after its last with the policy put back. Read its fields
 * inside tests (they exist once the file's tests start).
 */
import { afterAll, beforeAll } from "bun:test";
import { setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import type { RunningMock } from "./gateway-process.ts";
import { startMockInProcess } from "./in-process.ts";

export function mockPerFile(): RunningMock {
  let mock: RunningMock | null = null;
  beforeAll(() => {
    setEgressPolicy({ allowPrivate: true });
    mock = startMockInProcess();
  });
  afterAll(async () => {
    await mock?.stop();
    setEgressPolicy({ allowPrivate: false });
  });
  const started = (): RunningMock => {
    if (!mock) throw new Error("this file's mock is not started yet: read it inside a test");
    return mock;
  };
  return {
    get url() {
      return started().url;
    },
    requests: () => started().requests(),
    stats: () => started().stats(),
    stop: () => started().stop(),
  };
}
