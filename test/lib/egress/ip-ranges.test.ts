/** Address classes for the egress policy, in every spelling an attacker may try (after URL normalization). */
import { expect, test } from "bun:test";
import { classifyIp } from "../../../src/lib/egress/ip-ranges.ts";

/** The hostname a URL parser makes of what a caller wrote, as fetch would see it. */
const hostOf = (written: string) => new URL(`http://${written}/v1`).hostname;

const cases: [string, "public" | "private" | "forbidden"][] = [
  ["127.0.0.1", "private"],
  ["2130706433", "private"],
  ["0x7f000001", "private"],
  ["127.1", "private"],
  ["0177.0.0.1", "private"],
  ["[::1]", "private"],
  ["[::ffff:127.0.0.1]", "private"],
  ["[::ffff:7f00:1]", "private"],
  ["[0:0:0:0:0:ffff:127.0.0.1]", "private"],
  ["10.0.0.1", "private"],
  ["172.16.5.4", "private"],
  ["192.168.1.1", "private"],
  ["100.100.100.200", "private"],
  ["[fd12:3456::1]", "private"],
  ["[64:ff9b::10.0.0.1]", "private"],
  ["[2002:7f00:1::]", "private"],
  ["0.0.0.0", "forbidden"],
  ["0", "forbidden"],
  ["[::]", "forbidden"],
  ["169.254.169.254", "forbidden"],
  ["[::ffff:169.254.169.254]", "forbidden"],
  ["[fe80::1]", "forbidden"],
  ["[fd00:ec2::254]", "forbidden"],
  ["224.0.0.1", "forbidden"],
  ["255.255.255.255", "forbidden"],
  ["8.8.8.8", "public"],
  ["[2606:4700::1111]", "public"],
  ["[::ffff:8.8.8.8]", "public"],
];

for (const [written, expected] of cases) {
  test(`${written} is ${expected}`, () => {
    expect(classifyIp(hostOf(written))).toBe(expected);
  });
}

test("a hostname is not an address", () => {
  expect(classifyIp("api.openai.com")).toBeNull();
  expect(classifyIp("metadata.google.internal")).toBeNull();
});
