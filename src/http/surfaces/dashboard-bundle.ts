/**
 * The dashboard's browser bundle, built by Bun from web/ when this module is compiled.
 * Imported as a macro (`with { type: "macro" }`): `bun build --compile` runs it once and
 * inlines the result, so the executable carries the app and needs no files or network;
 * `bun run` and `bun test` run it when they load the importing module. (A macro may not
 * call Bun.build in-process, so it runs the `bun build` command.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface DashboardBundle {
  js: string;
  css: string;
}

const WEB = join(import.meta.dir, "..", "..", "..", "web");

export function buildDashboard(): DashboardBundle {
  const built = Bun.spawnSync(
    [
      process.execPath,
      "build",
      join(WEB, "src", "main.tsx"),
      "--target=browser",
      "--format=esm",
      "--minify",
      `--tsconfig-override=${join(WEB, "tsconfig.json")}`,
      "--define",
      'process.env.NODE_ENV="production"',
    ],
    { cwd: WEB, stdout: "pipe", stderr: "pipe", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (built.exitCode !== 0) throw new Error(`the dashboard bundle did not build:\n${built.stderr.toString()}`);
  const css = ["app.css", join("..", "node_modules", "uplot", "dist", "uPlot.min.css")]
    .map((f) => readFileSync(join(WEB, f), "utf8"))
    .join("\n");
  return { js: built.stdout.toString(), css };
}
