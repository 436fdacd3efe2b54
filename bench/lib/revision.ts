/**
 * Another revision's files in a temporary folder (git archive, no worktree), run with this
 * tree's packages; with `harness`, this tree's bench/ (less its results) replaces the
 * revision's, so a comparison drives and answers calls the same way on both sides and
 * only the gateway's code differs.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./processes.ts";

export interface ExportedRevision {
  dir: string;
  remove(): void;
}

export async function exportRevision(rev: string, opts: { harness?: boolean } = {}): Promise<ExportedRevision> {
  const dir = mkdtempSync(join(tmpdir(), "gw-rev-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const archive = Bun.spawn(["git", "archive", rev], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const untar = Bun.spawn(["tar", "-x", "-C", dir], { stdin: archive.stdout });
  if ((await archive.exited) !== 0 || (await untar.exited) !== 0) {
    const why = (await new Response(archive.stderr).text()).trim();
    remove();
    throw new Error(`cannot export revision ${rev}${why ? `: ${why}` : ""} (a shallow clone lacks it: fetch the history)`);
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  if (opts.harness) {
    rmSync(join(dir, "bench"), { recursive: true, force: true });
    cpSync(join(ROOT, "bench"), join(dir, "bench"), {
      recursive: true,
      filter: (path) => !path.startsWith(join(ROOT, "bench", "results")),
    });
  }
  return { dir, remove };
}
