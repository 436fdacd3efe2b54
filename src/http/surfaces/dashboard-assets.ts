/**
 * The bundle itself, in a module of its own that the dashboard surface imports on first
 * use: `bun build --compile` follows the import and runs the macro at build time, while a
 * `bun run` or `bun test` process that never serves the dashboard never builds it.
 */
import { buildDashboard } from "./dashboard-bundle.ts" with { type: "macro" };

export const BUNDLE = buildDashboard();
