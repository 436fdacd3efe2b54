/**
 * The loop guard: every call the gateway makes to a provider carries a hop header
 * with a secret made when this process started, and a request that arrives carrying
 * it is refused. A provider whose address is the gateway itself (with a gateway key
 * as its "provider key") would otherwise call itself until connections run out. The
 * secret keeps a deliberate chain of two different gateways working.
 */
export const HOP_HEADER = "x-gw-hop";

export const HOP_TOKEN = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");

/** The request was sent by this very process. */
export function cameFromThisGateway(headers: Headers): boolean {
  return headers.get(HOP_HEADER) === HOP_TOKEN;
}
