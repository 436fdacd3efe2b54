#!/usr/bin/env bun
/** The `gateway` executable: dispatches to one module per command. */
import { UsageError } from "./cli/args.ts";
import { demoData, demoDataUsage } from "./cli/demo-data.ts";
import { init, initUsage } from "./cli/init.ts";
import { keyCreate, keyCreateUsage } from "./cli/key-create.ts";
import { loginLink, loginLinkUsage } from "./cli/login-link.ts";
import { mockProvider, mockProviderUsage } from "./cli/mock-provider.ts";
import { serve, serveUsage } from "./cli/serve.ts";
import {
  signInDomainsApprove,
  signInDomainsApproveUsage,
  signInDomainsList,
  signInDomainsListUsage,
  signInDomainsRevoke,
  signInDomainsRevokeUsage,
} from "./cli/sign-in-domains.ts";
import { userAdd, userAddUsage } from "./cli/user-add.ts";
import { gatewayCommand } from "./cli/command-name.ts";
import { ConfigError, describeSettings } from "./config.ts";
import { OTEL_VARIABLES } from "./lib/tracing/otel-config.ts";
import { ApiError } from "./lib/errors.ts";
import { VERSION } from "./version.ts";

const COMMANDS: Record<string, { usage: string; summary: string; run: (argv: string[]) => Promise<void> }> = {
  serve: { usage: serveUsage, summary: "run the gateway (defaults 127.0.0.1:8080, ./data)", run: serve },
  init: { usage: initUsage, summary: "create an organization, its admin and an admin API key (printed once)", run: init },
  "user add": { usage: userAddUsage, summary: "add a member to the organization", run: userAdd },
  "key create": { usage: keyCreateUsage, summary: "operator recovery: a new admin key for an admin user, printed once", run: keyCreate },
  "login-link": { usage: loginLinkUsage, summary: "print a one-time dashboard sign-in URL (valid 10 minutes)", run: loginLink },
  "sign-in-domains list": {
    usage: signInDomainsListUsage,
    summary: "the e-mail domains organizations list for joining at first sign-in, and which the operator approved",
    run: signInDomainsList,
  },
  "sign-in-domains approve": {
    usage: signInDomainsApproveUsage,
    summary: "with several organizations, let a listed domain's first-time sign-ins join ORG (id or name)",
    run: signInDomainsApprove,
  },
  "sign-in-domains revoke": { usage: signInDomainsRevokeUsage, summary: "withdraw a domain's approval", run: signInDomainsRevoke },
  "demo-data": {
    usage: demoDataUsage,
    summary: "fill the demo organization ./scripts/start created with 90 days of synthetic usage",
    run: demoData,
  },
  "mock-provider": { usage: mockProviderUsage, summary: "run a fake model provider on loopback (default port 18080)", run: mockProvider },
};

/** A usage line as it runs where it is printed: `./gateway …` from a clone, `gateway …` from the binary on PATH. */
const spelled = (usage: string) => usage.replace(/^gateway /, `${gatewayCommand()} `);

function help(): string {
  const lines = [`gateway ${VERSION}: a bring-your-own-key AI gateway`, "", "Usage:"];
  for (const c of Object.values(COMMANDS)) lines.push(`  ${spelled(c.usage)}`, `      ${c.summary}`);
  lines.push(`  ${spelled("gateway --help | --version")}`, "", "Every flag also has an environment variable:");
  for (const s of describeSettings()) lines.push(`  ${s.env}${s.flag ? ` (--${s.flag})` : ""}`);
  lines.push("", "Tracing reads OpenTelemetry's standard variables (off without an endpoint):", `  ${OTEL_VARIABLES.join(", ")}`);
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    console.log(help());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-v") {
    console.log(VERSION);
    return 0;
  }
  const twoWords = `${first} ${second ?? ""}`;
  const name = COMMANDS[twoWords] ? twoWords : first;
  const command = COMMANDS[name];
  if (!command) {
    console.error(`gateway: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  const rest = argv.slice(name.split(" ").length);
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(`Usage: ${spelled(command.usage)}\n  ${command.summary}`);
    return 0;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) console.error(`gateway ${name}: ${err.message}\nUsage: ${spelled(command.usage)}`);
    else if (err instanceof ConfigError) console.error(`gateway ${name}: ${err.message}`);
    else if (err instanceof ApiError) console.error(`gateway ${name}: ${err.message}`);
    else console.error(`gateway ${name}: ${(err as Error)?.message ?? err}`);
    // One rule: 2 for a usage or configuration error (fix the command), 1 for a failure while running.
    return err instanceof UsageError || err instanceof ConfigError ? 2 : 1;
  }
}

const code = await main(process.argv.slice(2));
// Long-running commands (serve, mock-provider) keep the process alive through their servers.
if (code !== 0) process.exit(code);
