/**
 * Names a refusal of this node's Redis credentials while it runs. Redis keeps a
 * connection that logged in before the password was rotated (`CONFIG SET requirepass`,
 * `ACL SETUSER`); the refusal comes at the next connect (a blip, a Redis restart, an ACL
 * user deleted, which drops its connections), and Bun's client then says only
 * "Connection closed", the words of a Redis that is down. While the connection is down
 * this asks Redis once a tick on a plain socket (redis-credentials.ts), so the log, the
 * readiness check and the operator hear WRONGPASS or NOAUTH, never the URL or password.
 * A connection that is up costs nothing: no probe is sent.
 */
import type { Logger } from "../../lib/log.ts";
import { credentialsVerdict } from "./redis-credentials.ts";

/** Probes in a row without an answer before a known refusal is forgotten (Redis taken for away): one slow answer is not a change. */
const UNANSWERED_TO_FORGET = 3;

export interface CredentialWatchOptions {
  /** How often a connection found down is probed. */
  everyMs?: number;
  /** While the refusal lasts, it is logged again at most this often (with the probes since). */
  logEveryMs?: number;
  /** The probe's own wait for an answer. */
  timeoutMs: number;
  /** Redis's verdict on the URL's credentials, null when it gave none (the real probe unless a test gives another). */
  probe?: (url: string, timeoutMs: number) => Promise<{ refused: string | null } | null>;
}

export class CredentialWatch {
  private refused: string | null = null;
  private probing = false;
  private lastLogged = 0;
  /** Probes that found the refusal since it was last logged. */
  private unlogged = 0;
  private unanswered = 0;
  private seenConnects = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly probe: (url: string, timeoutMs: number) => Promise<{ refused: string | null } | null>;

  constructor(
    private readonly conn: { readonly connected: boolean; readonly connects?: number },
    private readonly url: string,
    private readonly log: Pick<Logger, "warn" | "info">,
    private readonly opts: CredentialWatchOptions,
  ) {
    this.probe = opts.probe ?? credentialsVerdict;
    this.timer = setInterval(() => this.tick(), opts.everyMs ?? 1000);
    this.timer.unref();
  }

  /** Why Redis refuses this node's credentials (a sentence naming GW_REDIS_URL), or null. */
  get refusal(): string | null {
    return this.refused;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    // A connection made since the last tick was a login Redis took, even if it dropped again
    // at once (an ACL user deleted right after): the refusal before it is over, and the next is new.
    const connects = this.conn.connects ?? 0;
    if (this.conn.connected || connects !== this.seenConnects) {
      this.seenConnects = connects;
      this.accepted();
      if (this.conn.connected) return;
    }
    if (this.probing) return;
    this.probing = true;
    this.probe(this.url, this.opts.timeoutMs)
      .then((verdict) => {
        this.unanswered = verdict === null ? this.unanswered + 1 : 0;
        // Connected again while the probe was out: the credentials were taken after all.
        if (this.conn.connected) this.accepted();
        else if (verdict?.refused) this.refusedWith(verdict.refused);
        // Answered without a refusal: taken again, though the client has not reconnected yet (said once, as on reconnect).
        else if (verdict !== null) this.accepted();
        else if (this.unanswered >= UNANSWERED_TO_FORGET) this.refused = null;
      })
      .catch(() => {})
      .finally(() => {
        this.probing = false;
      });
  }

  private refusedWith(reason: string): void {
    const first = this.refused === null;
    this.refused = reason;
    this.unlogged++;
    const now = Date.now();
    if (!first && now - this.lastLogged < (this.opts.logEveryMs ?? 60_000)) return;
    this.log.warn("Redis refuses this node's credentials; shared limits and caps wait until it accepts them", {
      reason,
      probes: this.unlogged,
    });
    this.lastLogged = now;
    this.unlogged = 0;
  }

  private accepted(): void {
    if (this.refused === null) return;
    this.refused = null;
    this.unlogged = 0;
    this.log.info("Redis accepts this node's credentials again");
  }
}
