/** Printed `gateway …` commands are spelled so they run where they are printed. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { gatewayCommand } from "../../src/cli/command-name.ts";
import { ROOT, runCli } from "../support/gateway-process.ts";

const fromSource = join(ROOT, "src", "cli.ts");

test("from a clone: the ./gateway wrapper, as typed from where it is printed", () => {
  expect(gatewayCommand(ROOT, fromSource)).toBe("./gateway");
  expect(gatewayCommand(join(ROOT, "docs"), fromSource)).toBe(join(ROOT, "gateway"));
});

test("a compiled binary: its bare name when on PATH, else its path", () => {
  const bin = join(ROOT, "dist", "gateway");
  expect(gatewayCommand(ROOT, "/$bunfs/root/gateway", bin, `/usr/bin:${join(ROOT, "dist")}`)).toBe("gateway");
  expect(gatewayCommand(ROOT, "/$bunfs/root/gateway", bin, "/usr/bin")).toBe("./dist/gateway");
  // From a folder the binary is not below (the clone's docs/: the clone itself may sit anywhere, /tmp included).
  expect(gatewayCommand(join(ROOT, "docs"), "/$bunfs/root/gateway", bin, "/usr/bin")).toBe(bin);
});

test("`./gateway --help` from the clone lists every command as it runs there", async () => {
  const r = await runCli(["--help"], {}, [join(ROOT, "gateway")]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("  ./gateway init --org NAME --email EMAIL");
  expect(r.stdout).toContain("  ./gateway login-link --email EMAIL");
  expect(r.stdout).not.toMatch(/^ {2}gateway /m);
});
