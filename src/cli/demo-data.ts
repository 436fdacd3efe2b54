/** `gateway demo-data --days N`: fills the demo organization scripts/start created with synthetic usage (counts only). */
import { loadConfig } from "../config.ts";
import { loadCatalog } from "../providers/catalog/catalog.ts";
import { openServices } from "../runtime.ts";
import { readDemoMarker, writeDemoMarker } from "../services/demo-data/demo-marker.ts";
import { demoUsage } from "../services/demo-data/synthetic-usage.ts";
import { DATA_FLAG, parseFlags, stringFlags, UsageError } from "./args.ts";

export const demoDataUsage = "gateway demo-data [--days N] [--data DIR]";

export async function demoData(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { days: { type: "string" }, ...DATA_FLAG });
  const days = f.days === undefined ? 90 : Number(f.days);
  if (!Number.isInteger(days) || days < 1 || days > 365)
    throw new UsageError(`--days must be a whole number from 1 to 365, got "${String(f.days).slice(0, 20)}"`);
  const config = loadConfig(stringFlags({ data: f.data }));
  const marker = readDemoMarker(config.dataDir);
  if (!marker) throw new UsageError(`demo-data fills only the demo organization ./scripts/start created, and ${config.dataDir} has none`);
  if (marker.demoDataAt) throw new UsageError(`the demo organization already got demo data (${marker.demoDataAt})`);
  const { store } = await openServices(config);
  try {
    const org = await store.getOrganization(marker.orgId);
    if (!org) throw new UsageError(`the demo organization ${marker.orgId} is no longer in ${config.dataDir}`);
    const catalog = loadCatalog(config.catalogPath);
    const keyIds = (await store.listApiKeys(org.id, { includeRevoked: false })).map((k) => k.id);
    let events = 0;
    for (const day of demoUsage({
      orgId: org.id,
      keyIds,
      days,
      now: Date.now(),
      price: (m, p, c) => catalog.costMicros(catalog.price(m, catalog.vendorFor(m) ?? "openai"), p, c),
    })) {
      // Key lifetime totals are left alone: synthetic spend must not count against real caps.
      await store.writeFlush({ id: crypto.randomUUID(), events: day, keyTouches: [] });
      events += day.length;
    }
    writeDemoMarker(config.dataDir, { ...marker, demoDataAt: new Date().toISOString() });
    console.log(
      `Wrote ${events} synthetic usage events over ${days} days for "${org.name}". Try GET /api/byok/analytics/forecast/30d?timeframe=90d.`,
    );
  } finally {
    await store.close();
  }
}
