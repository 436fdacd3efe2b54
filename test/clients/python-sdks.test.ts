/**
 * The official Python `openai` and `anthropic` SDKs against the gateway, on sandbox and live
 * keys. The checks are Python (python/*.py, one JSON line each); this file runs them with
 * the venv that scripts/test installs in test/clients/.venv. Where pip could reach no index,
 * scripts/test wrote the reason to .venv-skip-reason: the checks are then skipped, with that
 * reason printed. A venv missing for any other reason is a failure.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clientGateway, expectProviderTraffic, KEY_MODES } from "./client-gateway.ts";

const HERE = import.meta.dir;
const PYTHON = join(HERE, ".venv", "bin", "python");
const SKIP_REASON_FILE = join(HERE, ".venv-skip-reason");
const skipReason = !existsSync(PYTHON) && existsSync(SKIP_REASON_FILE) ? readFileSync(SKIP_REASON_FILE, "utf8").trim() : null;
// The one deliberate line of output in the suite: a skip is never silent. Written to stderr
// itself, since the console guard (test/support/console-guard.ts) is for unexpected output.
if (skipReason) process.stderr.write(`python-sdks: skipped, pip could not reach an index: ${skipReason}\n`);

const gw = clientGateway();

interface CheckResult {
  check: string;
  ok: boolean;
  error?: string;
}

/** Runs one SDK's checks against the gateway with `key`; asynchronously, since the gateway answers from this process. */
async function runChecks(script: string, key: string): Promise<{ results: CheckResult[]; stderr: string; code: number }> {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: ./scripts/test installs it (scripts/lib/setup.sh, ensure_client_suite)`);
  const proc = Bun.spawn([PYTHON, join(HERE, "python", script)], {
    cwd: join(HERE, "python"),
    env: { PATH: process.env.PATH ?? "", GW_URL: gw.origin, GW_KEY: key, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const results = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as CheckResult);
  return { results, stderr, code };
}

const SDKS = {
  openai: {
    script: "openai_sdk.py",
    checks: [
      "plain",
      "streamed",
      "tools_one_round_trip",
      "tools_two_step_loop",
      "structured_output_parse",
      "responses_plain_streamed_tools_and_parse",
      "embeddings",
      "cross_format",
      "errors_are_parsed",
    ],
  },
  anthropic: {
    script: "anthropic_sdk.py",
    checks: [
      "plain",
      "streamed",
      "tools_one_round_trip",
      "tools_two_step_loop",
      "structured_output_parse",
      "count_tokens",
      "errors_are_parsed",
    ],
  },
};

for (const mode of KEY_MODES) {
  describe(`Python SDKs, ${mode} key`, () => {
    for (const [sdk, { script, checks }] of Object.entries(SDKS)) {
      test.skipIf(skipReason !== null)(`${sdk}: ${checks.join(", ")}`, async () => {
        const { results, stderr, code } = await runChecks(script, gw.key(mode));
        const failed = results.filter((r) => !r.ok);
        expect({ failed, stderr: code === 0 ? "" : stderr.slice(-2000) }).toEqual({ failed: [], stderr: "" });
        expect(results.map((r) => r.check)).toEqual(checks);
        expect(code).toBe(0);
      });
    }

    test.skipIf(skipReason !== null)(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}
