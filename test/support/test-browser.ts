/**
 * Just enough of a browser for sign-in flows over HTTP: a cookie jar per host and
 * redirects followed by hand. Requests to the gateway's origin go to the in-process app
 * (`app.handle`), everything else (the identity provider) over the network.
 */
export interface Hop {
  url: string;
  status: number;
  response: Response;
}

export class TestBrowser {
  /** host -> cookie name -> value */
  readonly jar = new Map<string, Map<string, string>>();

  constructor(
    private readonly gatewayOrigin: string,
    private readonly handle: (req: Request) => Promise<Response>,
  ) {}

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  cookieHeader(host: string): string {
    return [...(this.jar.get(host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = this.cookieHeader(u.host);
    if (cookies) headers.set("cookie", cookies);
    const req = new Request(url, { ...init, headers, redirect: "manual" });
    const res = u.origin === this.gatewayOrigin ? await this.handle(req) : await fetch(req);
    for (const line of res.headers.getSetCookie()) this.store(u.host, line);
    return res;
  }

  /** Follows redirects from `url` and returns every hop (the last one is where the browser lands). */
  async navigate(url: string, maxHops = 20): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    while (next && hops.length < maxHops) {
      const response = await this.request(next);
      hops.push({ url: next, status: response.status, response });
      const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
      next = location ? new URL(location, next).href : null;
    }
    return hops;
  }

  private store(host: string, line: string): void {
    const [pair, ...attrs] = line.split(";");
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    this.jar.set(host, cookies);
    if (expired || value === "") cookies.delete(name);
    else cookies.set(name, value);
  }
}
