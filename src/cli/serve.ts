/** `gateway serve`: run the server until SIGTERM/SIGINT, then drain, flush and exit. */
import { createApp, SERVER_MAX_REQUEST_BODY } from "../http/app.ts";
import { loadConfig, unknownSettings } from "../config.ts";
import { createLogger } from "../lib/log.ts";
import { createRuntime, openServices } from "../runtime.ts";
import { VERSION } from "../version.ts";
import { DATA_FLAG, parseFlags, stringFlags } from "./args.ts";
import { gatewayCommand } from "./command-name.ts";
import { prepareDataFolder } from "./data-folder.ts";
import { lockDataFolder } from "./data-lock.ts";
import { reportListening, superviseWorkers, WORKER_ENV, workerCount } from "./serve-workers.ts";

/** How long the last flush and closing the store may take once the drain is over. */
const SHUTDOWN_WRITE_S = 10;
/**
 * After a cut, how long the streams have to write their terminal event and end before
 * the connections still open (calls waiting for their provider's headers, a client not
 * reading) are closed.
 */
const CUT_GRACE_MS = 1000;

export const serveUsage = "gateway serve [--host H] [--port P] [--data DIR] [--public-url URL] [--workers N]";

export async function serve(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    host: { type: "string" },
    port: { type: "string" },
    "public-url": { type: "string" },
    workers: { type: "string" },
    ...DATA_FLAG,
  });
  const config = loadConfig(stringFlags(flags));
  const log = createLogger(config.logLevel);
  for (const u of unknownSettings()) log.warn("unknown setting ignored", u);
  prepareDataFolder(config.dataDir);
  const worker = process.env[WORKER_ENV] !== undefined;
  // One gateway per data folder; the workers of one node share their supervisor's lock.
  // A lock held by the parent is ./scripts/start's, taken for this server before its setup step.
  const lock = worker ? null : lockDataFolder(config.dataDir, process.pid, process.ppid);
  if (lock) process.on("exit", () => lock.release());
  const workers = workerCount(flags.workers, config);
  if (workers > 1) {
    // Migrations and the master key once, before the workers start together.
    await (await openServices(config)).store.close();
    return superviseWorkers(
      workers,
      argv.filter((a, i) => a !== "--workers" && argv[i - 1] !== "--workers" && !a.startsWith("--workers=")),
      log,
    );
  }
  const rt = await createRuntime(config, log);
  let app: ReturnType<ReturnType<typeof createApp>["listen"]>;
  try {
    app = createApp(rt).listen({
      hostname: config.host,
      port: config.port,
      // Elysia turns reusePort on, which lets a second server share the port and answer in turn
      // with its own limiter and caches: only the workers of one node share it (serve-workers.ts).
      reusePort: worker,
      // Bun's own limit answers with a bare 413, so it is out of reach: the surfaces check
      // Content-Length first and stop reading chunked bodies at our limit, in the right envelope.
      maxRequestBodySize: SERVER_MAX_REQUEST_BODY,
    });
  } catch (err) {
    await rt.shutdown();
    if ((err as NodeJS.ErrnoException)?.code === "EADDRINUSE")
      throw new Error(`${config.host}:${config.port} is already in use (another gateway?); stop it or choose another --port`);
    // An address this machine does not have, a name that does not resolve, a port below 1024 without the right.
    throw new Error(`--host/--port (GW_HOST, GW_PORT): cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  const server = app.server!;

  let stopping = false;
  let cut = false;
  let crashed = false;
  let closeAfterCut: ReturnType<typeof setTimeout> | undefined;
  // In-flight calls cut: their streams end, are charged as cut streams, and the shutdown goes on to flush them.
  const cutInFlight = (why: string, fields: Record<string, unknown>) => {
    if (cut) return;
    cut = true;
    // Each running stream ends as one the idle bound ends: its caller gets its format's
    // terminal `stream_interrupted` event, not a connection closed mid-answer.
    const streams = rt.services.calls.cutStreams();
    log.warn(why, { inFlight: server.pendingRequests, streams, ...fields });
    log.flush();
    closeAfterCut = setTimeout(() => void server.stop(true), CUT_GRACE_MS);
  };
  const stop = async (signal: string) => {
    if (stopping) {
      if (!cut) return cutInFlight("second signal: cutting in-flight requests; their usage is still written", { signal });
      log.warn("third signal: exiting without writing pending usage", { signal, usageEvents: rt.usage.stats().pending });
      log.flush();
      process.exit(1);
    }
    stopping = true;
    log.info("shutting down", { signal, inFlight: server.pendingRequests });
    rt.draining = true;
    // Past the deadline a stream still running is cut rather than left to the supervisor's
    // SIGKILL (systemd's TimeoutStopSec, Kubernetes' grace period), which would charge nothing.
    const deadline =
      config.drainTimeoutS > 0
        ? setTimeout(
            () => cutInFlight("drain deadline passed: cutting in-flight requests", { drainTimeoutS: config.drainTimeoutS }),
            config.drainTimeoutS * 1000,
          )
        : undefined;
    // Stop accepting connections and let in-flight requests finish, so their usage is recorded before the final flush.
    const drained = server.stop(false);
    // An MCP client's notification stream (GET /mcp) never ends by itself: it held every shutdown to the deadline.
    rt.mcp.endStreams();
    await drained;
    clearTimeout(deadline);
    clearTimeout(closeAfterCut);
    // The last flush and closing the store, bounded: a database gone without a reset (a
    // partition, a frozen host) held them until the supervisor's SIGKILL, which said nothing.
    const finished = await Promise.race([
      rt.shutdown().then(
        () => true,
        (err) => {
          log.error("shutdown failed", { error: String(err) });
          return false;
        },
      ),
      Bun.sleep(SHUTDOWN_WRITE_S * 1000).then(() => {
        log.error("shutdown did not finish: the store did not answer; usage being written may be lost", { waitedS: SHUTDOWN_WRITE_S });
        return false;
      }),
    ]);
    lock?.release();
    // Usage the store would not take (a full disk, a database away) is gone with the process: say so, and exit non-zero.
    const left = rt.usage.stats();
    const unwritten = left.pending > 0 || left.flushLagMs > 0;
    if (unwritten) log.error("usage not written before exit", { events: left.pending, failures: left.failures });
    log.info("stopped", { signal });
    log.flush();
    process.exit(unwritten || !finished || crashed ? 1 : 0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // A closed terminal or ssh session: its default action ended the process where it stood, unflushed.
  process.on("SIGHUP", () => void stop("SIGHUP"));
  // A bug that escapes (a throw in a timer, a rejection nobody awaited) ended the process with
  // Bun's trace on stderr, losing the buffered usage, the charges of calls in flight and the
  // log lines saying why. It is logged, and the server stops as on SIGTERM, exiting 1 so that
  // its supervisor starts it again.
  const fatal = (what: string) => (err: unknown) => {
    crashed = true;
    log.error(what, { error: String(err), stack: err instanceof Error ? err.stack : undefined });
    log.flush();
    void stop(what);
  };
  process.on("uncaughtException", fatal("uncaught exception; stopping"));
  process.on("unhandledRejection", fatal("unhandled rejection; stopping"));

  // Said once every signal is handled: a SIGTERM sent on seeing "listening" found none and killed the process where it stood.
  const url = `http://${server.hostname}:${server.port}`;
  lock?.listening(url);
  log.info("listening", { url, version: VERSION, dataDir: config.dataDir, store: config.databaseUrl ? "external" : "sqlite" });
  if ((await rt.store.listOrganizations()).length === 0) {
    log.warn("no organization yet: every call will be refused until one exists", {
      create: `${gatewayCommand()} init --org NAME --email EMAIL --data ${config.dataDir}`,
    });
  }
  log.flush();
  // A worker tells its supervisor it listens; one whose supervisor is gone drains and exits.
  if (reportListening()) process.on("disconnect", () => void stop("supervisor gone"));
}
