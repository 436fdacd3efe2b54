/** Printed `gateway …` commands are spelled so they run where they are printed. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { gatewayCommand } from "../../src/cli/command-name.ts";
import { ROOT } from "../support/gateway-process.ts";

const fromSource = join(ROOT, "src", "cli.ts");

test("from a clone: the ./gateway wrapper, as typed from where it is printed", () => {
  expect(gatewayCommand(ROOT, fromSource)).toBe("./gateway");
  expect(gatewayCommand(join(ROOT, "docs"), fromSource)).toBe(join(ROOT, "gateway"));
});

test("a compiled binary: its bare name when on PATH, else its path", () => {
  const bin = join(ROOT, "dist", "gateway");
  expect(gatewayCommand(ROOT, "/$bunfs/root/gateway", bin, `/usr/bin:${join(ROOT, "dist")}`)).toBe("gateway");
  expect(gatewayCommand(ROOT, "/$bunfs/root/gateway", bin, "/usr/bin")).toBe("./dist/gateway");
  expect(gatewayCommand("/tmp", "/$bunfs/root/gateway", bin, "/usr/bin")).toBe(bin);
});
