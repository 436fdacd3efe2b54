/**
 * Which organization is the demo one: scripts/start writes this file in the data folder
 * when it creates the demo organization, so `gateway demo-data` can never fill a real
 * organization with synthetic usage.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DemoMarker {
  orgId: string;
  /** When demo data was written (once per demo organization). */
  demoDataAt?: string;
}

const FILE = "demo-organization.json";

export function readDemoMarker(dataDir: string): DemoMarker | null {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return null;
  const m = JSON.parse(readFileSync(path, "utf8")) as DemoMarker;
  return typeof m.orgId === "string" ? m : null;
}

export function writeDemoMarker(dataDir: string, marker: DemoMarker): void {
  writeFileSync(join(dataDir, FILE), `${JSON.stringify(marker)}\n`, { mode: 0o600 });
}
