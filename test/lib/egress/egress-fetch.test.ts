/**
 * The one outbound fetch, against a listener on loopback: refused addresses in every
 * spelling send nothing, with and without GW_ALLOW_PRIVATE_EGRESS; redirects come
 * back unfollowed; only http(s) goes out; and a refusal in words names the setting.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { egressFetch } from "../../../src/lib/egress/egress-fetch.ts";
import { checkEgressUrl, EgressRefused, PRIVATE_EGRESS_SETTING, setEgressPolicy } from "../../../src/lib/egress/egress-policy.ts";

let listener: ReturnType<typeof Bun.serve>;
let hits: { path: string; host: string | null }[] = [];
let port: number;

beforeAll(() => {
  // On every local address, so 0.0.0.0, localhost and [::ffff:127.0.0.1] would all reach it if let through.
  listener = Bun.serve({
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      hits.push({ path: url.pathname, host: req.headers.get("host") });
      if (url.pathname === "/hop") return Response.redirect(`http://127.0.0.1:${port}/after-hop`, 302);
      return new Response("ok");
    },
  });
  port = listener.port as number;
});

// The policy is the process's: each test starts from the default (private refused), whatever ran before.
beforeEach(() => setEgressPolicy({ allowPrivate: false }));

afterEach(() => {
  hits = [];
  setEgressPolicy({ allowPrivate: false });
});

afterAll(() => listener.stop(true));

const refusal = async (url: string) => {
  try {
    await egressFetch(url, { method: "POST", body: "{}" });
  } catch (err) {
    return err;
  }
  return null;
};

const local = () => [
  `http://127.0.0.1:${port}/hook`,
  `http://localhost:${port}/hook`,
  `http://[::ffff:127.0.0.1]:${port}/hook`,
  `http://[::ffff:7f00:1]:${port}/hook`,
  `http://2130706433:${port}/hook`,
];
const never = () => [
  `http://0.0.0.0:${port}/hook`,
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://[fe80::1]/",
];

describe("without the setting", () => {
  test("loopback in every spelling, 0.0.0.0 and the metadata addresses are refused, and the listener receives nothing", async () => {
    for (const url of [...local(), ...never()]) {
      const err = await refusal(url);
      expect(err).toBeInstanceOf(EgressRefused);
    }
    expect(hits).toEqual([]);
  });

  test("the refusal at save time says which setting allows a private address, and that metadata is never reached", async () => {
    expect(await checkEgressUrl(`http://localhost:${port}/hook`)).toContain(PRIVATE_EGRESS_SETTING);
    expect(await checkEgressUrl(`http://10.0.0.1/hook`)).toContain(PRIVATE_EGRESS_SETTING);
    expect(await checkEgressUrl("http://169.254.169.254/")).toContain("never");
    expect(await checkEgressUrl("http://metadata.google.internal/")).toContain("never");
    expect(await checkEgressUrl("file:///etc/passwd")).toContain("only http and https");
    expect(hits).toEqual([]);
  });
});

describe("with GW_ALLOW_PRIVATE_EGRESS", () => {
  test("loopback is reached, with the name asked for as the Host", async () => {
    setEgressPolicy({ allowPrivate: true });
    for (const url of local()) expect((await egressFetch(url, { method: "POST", body: "{}" })).status).toBe(200);
    expect(hits).toHaveLength(local().length);
    expect(hits[1]?.host).toBe(`localhost:${port}`);
    expect(await checkEgressUrl(`http://localhost:${port}/hook`)).toBeNull();
  });

  test("0.0.0.0, link-local and metadata addresses are still refused", async () => {
    setEgressPolicy({ allowPrivate: true });
    for (const url of never()) expect(await refusal(url)).toBeInstanceOf(EgressRefused);
    expect(hits).toEqual([]);
  });

  test("a redirect comes back as it is: the hop is not followed", async () => {
    setEgressPolicy({ allowPrivate: true });
    const res = await egressFetch(`http://127.0.0.1:${port}/hop`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(hits.map((h) => h.path)).toEqual(["/hop"]);
  });

  test("only the network: file and data URLs are refused", async () => {
    setEgressPolicy({ allowPrivate: true });
    for (const url of ["file:///etc/passwd", "data:text/plain,hi", "not a url"])
      expect(((await refusal(url)) as EgressRefused).reason).toBe("scheme");
  });
});

test("the check is made again at connection time: an address saved while allowed is refused once it is not", async () => {
  setEgressPolicy({ allowPrivate: true });
  const saved = `http://localhost:${port}/hook`;
  expect(await checkEgressUrl(saved)).toBeNull();
  setEgressPolicy({ allowPrivate: false });
  expect(await refusal(saved)).toBeInstanceOf(EgressRefused);
  expect(hits).toEqual([]);
});

test("an address checked a moment ago is sent to again at once, and a change of policy applies to the next request", async () => {
  setEgressPolicy({ allowPrivate: true });
  const url = `http://localhost:${port}/again`;
  expect((await egressFetch(url, { method: "POST", body: "{}" })).status).toBe(200);
  expect((await egressFetch(url, { method: "POST", body: "{}" })).status).toBe(200);
  expect(hits.map((h) => h.host)).toEqual([`localhost:${port}`, `localhost:${port}`]);
  setEgressPolicy({ allowPrivate: false });
  expect(await refusal(url)).toBeInstanceOf(EgressRefused);
  expect(hits).toHaveLength(2);
});
