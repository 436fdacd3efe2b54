/**
 * What kind of network an IP address is on, for the egress policy: public, private
 * (loopback, RFC 1918, unique-local, carrier-grade NAT, documentation and benchmark
 * ranges: allowed only when the operator says so) or forbidden (link-local, where the
 * clouds' metadata services live, unspecified, multicast and reserved: never). IPv6
 * forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by
 * the IPv4 address inside, so `[::ffff:127.0.0.1]` is loopback.
 */

export type AddressClass = "public" | "private" | "forbidden";

/** [first octets as a 32-bit number, prefix length, class] for IPv4. */
const V4_RANGES: [number, number, AddressClass][] = [
  [v4("0.0.0.0"), 8, "forbidden"], // "this network": 0.0.0.0 reaches the local host
  [v4("10.0.0.0"), 8, "private"],
  [v4("100.64.0.0"), 10, "private"], // carrier-grade NAT (also Alibaba's metadata at 100.100.100.200)
  [v4("127.0.0.0"), 8, "private"], // loopback
  [v4("169.254.0.0"), 16, "forbidden"], // link-local: 169.254.169.254 metadata
  [v4("172.16.0.0"), 12, "private"],
  [v4("192.0.0.0"), 24, "private"],
  [v4("192.0.2.0"), 24, "private"],
  [v4("192.88.99.0"), 24, "private"],
  [v4("192.168.0.0"), 16, "private"],
  [v4("198.18.0.0"), 15, "private"],
  [v4("198.51.100.0"), 24, "private"],
  [v4("203.0.113.0"), 24, "private"],
  [v4("224.0.0.0"), 4, "forbidden"], // multicast
  [v4("240.0.0.0"), 4, "forbidden"], // reserved and broadcast
];

function v4(text: string): number {
  return text.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** A dotted-quad IPv4 address as a number, or null. (Hostnames are normalized by URL first: 127.1 and 0x7f000001 arrive as 127.0.0.1.) */
export function parseV4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

export function classifyV4(n: number): AddressClass {
  for (const [base, bits, cls] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return cls;
  }
  return "public";
}

/** An IPv6 address as eight 16-bit groups, or null. Accepts a trailing dotted IPv4 part and drops a zone id. */
export function parseV6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  // A trailing dotted IPv4 part becomes its two 16-bit groups.
  const dotted = s.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = parseV4(dotted[2] as string);
    if (n === null) return null;
    s = `${dotted[1]}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0] as string);
  const rest = halves.length === 2 ? groups(halves[1] as string) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - known).fill(0) : [];
  return [...head, ...zeros.map(String), ...rest].map((g) => parseInt(g, 16));
}

const embedded = (g: number[], hi: number, lo: number) => (g[hi] as number) * 65536 + (g[lo] as number);

export function classifyV6(g: number[]): AddressClass {
  const [a = 0, b = 0] = g;
  const zerosTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zerosTo(8)) return "forbidden"; // ::
  if (zerosTo(7) && g[7] === 1) return "private"; // ::1
  if (zerosTo(5) && g[5] === 0xffff) return classifyV4(embedded(g, 6, 7)); // ::ffff:a.b.c.d
  if (zerosTo(6)) return classifyV4(embedded(g, 6, 7)); // ::a.b.c.d (deprecated compatible form)
  if (a === 0x64 && b === 0xff9b) return classifyV4(embedded(g, 6, 7)); // NAT64
  if (a === 0x2002) return classifyV4(embedded(g, 1, 2)); // 6to4
  if (a === 0xfd00 && b === 0x0ec2) return "forbidden"; // AWS metadata over IPv6 (fd00:ec2::254)
  if ((a & 0xffc0) === 0xfe80) return "forbidden"; // link-local
  if ((a & 0xff00) === 0xff00) return "forbidden"; // multicast
  if ((a & 0xfe00) === 0xfc00) return "private"; // unique-local
  if ((a & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated)
  if (a === 0x2001 && b === 0x0db8) return "private"; // documentation
  if (a === 0x0100 && zerosTo(4)) return "forbidden"; // discard-only
  return "public";
}

/** The class of a literal IP address (either family), or null when `host` is not one. */
export function classifyIp(host: string): AddressClass | null {
  const four = parseV4(host);
  if (four !== null) return classifyV4(four);
  if (!host.includes(":")) return null;
  const six = parseV6(host);
  return six ? classifyV6(six) : null;
}
