/**
 * Why a Redis that would not connect refused: Bun's client says "Connection closed" for a
 * wrong password as for a host that is down, so at start the operator was told "cannot
 * reach Redis" while the password was the fault. One command on a plain socket (AUTH with
 * the URL's credentials, or PING without them) reads Redis's own answer. Never the URL or
 * its password in what it returns.
 */

/** A command as RESP puts it on the wire (lengths in bytes: a password may not be ASCII). */
function resp(args: string[]): Uint8Array {
  const enc = new TextEncoder();
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${enc.encode(a).byteLength}\r\n${a}\r\n`;
  return enc.encode(out);
}

/** The first line Redis answers `payload` with, or null when it cannot be reached or says nothing in time. */
function firstReply(url: URL, payload: Uint8Array, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let text = "";
    let done = false;
    let socket: { end(): void } | null = null;
    const finish = (reply: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket?.end();
      resolve(reply);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const decoder = new TextDecoder();
    Bun.connect({
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 6379),
      tls: url.protocol === "rediss:",
      socket: {
        open(s) {
          socket = s;
          s.write(payload);
        },
        data(_s, chunk) {
          text += decoder.decode(chunk, { stream: true });
          const end = text.indexOf("\r\n");
          if (end >= 0) finish(text.slice(0, end));
        },
        close: () => finish(null),
        error: () => finish(null),
        connectError: () => finish(null),
      },
    }).catch(() => finish(null));
  });
}

/**
 * What Redis says of the URL's credentials when it refuses them (a sentence for the
 * operator, naming the setting), else null: it could not be reached, or they are not
 * what failed.
 */
export async function refusedCredentials(redisUrl: string, timeoutMs: number): Promise<string | null> {
  return (await credentialsVerdict(redisUrl, timeoutMs))?.refused ?? null;
}

/**
 * Redis's verdict on the URL's credentials: `refused` is the sentence above, or null when
 * Redis answered without refusing them; null altogether when it gave no answer in time
 * (down, or too slow to tell), so a watcher keeps what it knew.
 */
export async function credentialsVerdict(redisUrl: string, timeoutMs: number): Promise<{ refused: string | null } | null> {
  let url: URL;
  try {
    url = new URL(redisUrl);
  } catch {
    return { refused: null };
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const command = password === "" ? ["PING"] : user === "" ? ["AUTH", password] : ["AUTH", user, password];
  const reply = await firstReply(url, resp(command), timeoutMs);
  if (reply === null) return null;
  // WRONGPASS (Redis 6 and later, ACL users too); "invalid password" before.
  if (/^-(WRONGPASS|ERR invalid (username-)?password)/i.test(reply))
    return { refused: "Redis refused the user name or password in GW_REDIS_URL (WRONGPASS); correct them there" };
  if (/^-NOAUTH/i.test(reply))
    return { refused: "Redis requires a password (NOAUTH) and GW_REDIS_URL gives none: redis://:PASSWORD@host:port" };
  return { refused: null };
}
