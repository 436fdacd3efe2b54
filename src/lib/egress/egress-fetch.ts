/**
 * The one outbound fetch: every request the gateway makes to an address it was given
 * (providers, alert webhooks, the identity provider, anything added later) goes through
 * here, so none can skip the egress policy. The address is checked after resolution
 * and the connection goes to the checked address, with the original Host header and
 * TLS server name. Redirects are never followed: a 3xx comes back as it is, so no
 * hop can lead to a refused address. An architecture test keeps every other file of
 * src/ from calling fetch itself.
 */
import { cachedPin, type PinnedRequest, pinToCheckedAddress } from "./egress-policy.ts";

/** fetch's options, less redirect handling, which is always "manual" here. */
export type EgressInit = Omit<RequestInit, "redirect"> & { redirect?: "manual" };

/** A fetch-shaped function (what a library's custom fetch hook or a dependency takes). */
export type EgressFetch = (url: string | URL, init?: EgressInit) => Promise<Response>;

/**
 * Sends the request to the checked address of `url`; rejects with EgressRefused when the
 * policy refuses it. An address checked a moment ago (cachedPin: the same URL, the same
 * policy, its resolution still fresh) is sent at once, without waiting a turn.
 */
export const egressFetch: EgressFetch = (url, init = {}) => {
  const to = cachedPin(typeof url === "string" ? url : url.href);
  return to !== null ? send(to, init) : pinToCheckedAddress(url).then((pin) => send(pin, init));
};

/** Always a promise, even when fetch throws at once: callers may chain on it. */
function send(to: PinnedRequest, init: EgressInit): Promise<Response> {
  try {
    const headers = to.host === null ? init.headers : withHost(init.headers, to.host);
    const options: RequestInit & { tls?: PinnedRequest["tls"] } = { ...init, headers, redirect: "manual" };
    // Set only when pinned to a name's address (no empty object spread in on every call).
    if (to.tls) options.tls = to.tls;
    return fetch(to.url, options);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The headers with `host` set; a plain object stays one (the provider path's, built per call). */
function withHost(headers: RequestInit["headers"] | undefined, host: string): RequestInit["headers"] {
  if (headers === undefined) return { host };
  if (headers instanceof Headers || Array.isArray(headers)) {
    const copy = new Headers(headers);
    copy.set("host", host);
    return copy;
  }
  return { ...headers, host };
}
