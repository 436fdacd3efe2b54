/**
 * ./scripts/cluster, the README's local recipe for several nodes (real processes): Redis,
 * Postgres and two nodes sharing them; a key made through one node answers on the other,
 * with the mock it registered; Ctrl-C (SIGINT) stops every node.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { ROOT, runCli } from "../support/gateway-process.ts";

setDefaultTimeout(120_000);

const SCRIPT = join(ROOT, "scripts", "cluster");

test("two nodes on one Postgres and one Redis: a key made on one answers on the other; Ctrl-C stops them all", async () => {
  const proc = Bun.spawn(["bash", SCRIPT, "2", "--port", "0"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    out += decoder.decode(chunk, { stream: true });
    if (out.includes("Stop with Ctrl-C.")) break;
  }
  const nodes = [...out.matchAll(/node \d+ {2}(http:\/\/\S+)/g)].map((m) => m[1] as string);
  const admin = /GW_KEY=(gw_live_\w+)/.exec(out)?.[1] as string;
  try {
    expect(nodes).toHaveLength(2);
    const made = await fetch(`${nodes[0]}/api/v1/gateway`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ operation: "org.service-account.create", params: { serviceAccountName: "app" } }),
    });
    const key = ((await made.json()) as { data: { apiKey: { key: string } } }).data.apiKey.key;
    const answer = await fetch(`${nodes[1]}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-gw-provider")).toBe("mock-openai/gpt-4o-mini");
    await answer.arrayBuffer();
  } finally {
    proc.kill("SIGINT");
  }
  expect(await proc.exited).toBe(0);
  for (const url of nodes)
    expect(
      await fetch(`${url}/healthz`).then(
        () => "answering",
        () => "stopped",
      ),
    ).toBe("stopped");
});

test("a bad node count is a usage error before anything starts", async () => {
  const r = await runCli(["0"], {}, ["bash", SCRIPT]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("N must be a whole number from 1 to 16");
});
