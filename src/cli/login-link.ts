/** `gateway login-link`: a one-time sign-in URL (10 minutes) for installs without an identity provider. */
import { loadConfig } from "../config.ts";
import { ApiError } from "../lib/errors.ts";
import { normalizeEmail } from "../services/organizations.ts";
import { createLoginLink } from "../services/sessions.ts";
import { openServices } from "../runtime.ts";
import { DATA_FLAG, parseFlags, stringFlags, UsageError } from "./args.ts";
import { gatewayCommand } from "./command-name.ts";
import { readLiveLock } from "./data-lock.ts";
import { clientBaseUrl } from "./init.ts";

export const loginLinkUsage = "gateway login-link --email EMAIL [--data DIR] [--host H] [--port P] [--public-url URL]";

export async function loginLink(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    email: { type: "string" },
    host: { type: "string" },
    port: { type: "string" },
    "public-url": { type: "string" },
    ...DATA_FLAG,
  });
  if (!f.email) throw new UsageError("--email is required");
  const config = loadConfig(stringFlags(f));
  const { store } = await openServices(config);
  try {
    const user = await store.getUserByEmail(normalizeEmail(f.email));
    if (!user) throw new ApiError(404, "not_found", `no user with e-mail ${f.email}; add one with \`${gatewayCommand()} user add\``);
    const { token, expiresAt } = await createLoginLink(store, user, Date.now());
    // Without an address given, the server running on this data folder says where it listens.
    const given = f.host !== undefined || f.port !== undefined || process.env.GW_PORT !== undefined || process.env.GW_HOST !== undefined;
    const running = given ? null : (readLiveLock(config.dataDir)?.url ?? null);
    // A server on every interface (0.0.0.0, the systemd unit's) is reached on loopback: "http://0.0.0.0:…" opens nowhere on some systems.
    const at = running ? new URL(running) : null;
    const base = clientBaseUrl(at ? { ...config, host: at.hostname.replace(/^\[(.*)\]$/, "$1"), port: Number(at.port) } : config);
    console.log(`${base.replace(/\/$/, "")}/auth/link?token=${token}`);
    console.error(`One-time link for ${user.email}, valid until ${new Date(expiresAt).toISOString()}.`);
  } finally {
    await store.close();
  }
}
