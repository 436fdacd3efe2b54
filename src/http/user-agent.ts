/** The caller's `User-Agent` as the audit log keeps it: cut, since every refused operation writes one and the header is the caller's to size. */

/** Longer than any real client's; Bun lets a header run to many kilobytes. */
export const MAX_USER_AGENT_CHARS = 500;

export function userAgentOf(request: Request): string | null {
  return request.headers.get("user-agent")?.slice(0, MAX_USER_AGENT_CHARS) ?? null;
}
