/**
 * A private Prometheus server (Debian's `prometheus` package) scraping one target on
 * loopback every second, with its data in a temporary folder: stopped, and the folder
 * removed, by `stop()`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./servers.ts";

export interface PrometheusServer {
  url: string;
  /** An instant query's result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Polls `promql` until it returns a series (scrapes come every second). */
  waitFor(promql: string, timeoutMs?: number): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

export async function startPrometheus(target: { host: string; metricsPath: string; bearer?: string }): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), "gw-prometheus-"));
  const port = await freePort();
  const auth = target.bearer ? `    authorization:\n      type: Bearer\n      credentials: ${target.bearer}\n` : "";
  writeFileSync(
    join(dir, "prometheus.yml"),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: gateway\n    metrics_path: ${target.metricsPath}\n${auth}    static_configs:\n      - targets: ["${target.host}"]\n`,
  );
  const proc = Bun.spawn(
    [
      "prometheus",
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=error",
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  const url = `http://127.0.0.1:${port}`;
  const query = async (promql: string) => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data?: { result: never[] }; error?: string };
    if (body.status !== "success") throw new Error(`prometheus: ${body.error}`);
    return body.data!.result;
  };
  const until = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`prometheus exited: ${await new Response(proc.stderr).text()}`);
    const ready = await fetch(`${url}/-/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > until) throw new Error("prometheus did not become ready");
    await Bun.sleep(100);
  }
  return {
    url,
    query,
    async waitFor(promql, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const result = await query(promql);
        if (result.length) return result;
        if (Date.now() > end) throw new Error(`no series for ${promql}`);
        await Bun.sleep(250);
      }
    },
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
