/**
 * The usual end-to-end setup in one call: the project's mock provider, an organization
 * initialized in a fresh data folder, and the gateway serving it; and its teardown.
 */
import { initOrg, type InitResult, removeDir, type RunningGateway, type RunningMock, startGateway, startMockProvider, tempDataDir } from "./gateway-process.ts";

export interface Stack {
  mock: RunningMock;
  org: InitResult;
  gw: RunningGateway;
}

export async function startStack(opts: { mockArgs?: string[]; env?: Record<string, string>; adminEmail?: string } = {}): Promise<Stack> {
  const mock = await startMockProvider(opts.mockArgs);
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir, opts.adminEmail);
  const gw = await startGateway({ dataDir, env: opts.env });
  return { mock, org, gw };
}

/** Stops the gateway (SIGTERM: it drains and flushes) and the mock, and removes the data folder. */
export async function stopStack(s: { gw: RunningGateway; mock: RunningMock }): Promise<void> {
  await s.gw.stop();
  await s.mock.stop();
  removeDir(s.gw.dataDir);
}
