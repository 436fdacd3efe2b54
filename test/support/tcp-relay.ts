/**
 * A TCP relay in front of a test server: a node connected through it can be cut off
 * (its connections reset, new ones refused) or frozen (connections stay open and carry
 * nothing, as when a peer vanished without a reset) while every other client of the
 * server stays connected, then let through again on the same port.
 */
import type { Socket, TCPSocketListener } from "bun";
import { freePort } from "./servers.ts";

export interface TcpRelay {
  readonly port: number;
  /** Resets every relayed connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again on the same port. */
  restore(): void;
  /** Keeps every connection open but drops what either side sends. */
  freeze(): void;
  /** Carries data again (what was dropped stays lost). */
  thaw(): void;
  close(): void;
}

interface Pair {
  upstream: Socket<Pair> | null;
  /** Bytes from the client before the upstream connection opened. */
  early: Uint8Array[];
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const port = await freePort();
  const open = new Set<Socket<Pair>>();
  let listener: TCPSocketListener<Pair> | null = null;
  let frozen = false;
  const listen = () => {
    listener = Bun.listen<Pair>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(client) {
          client.data = { upstream: null, early: [] };
          open.add(client);
          void Bun.connect<Pair>({
            hostname: "127.0.0.1",
            port: targetPort,
            socket: {
              open(upstream) {
                upstream.data = client.data;
                client.data.upstream = upstream;
                open.add(upstream);
                for (const chunk of client.data.early) upstream.write(chunk);
                client.data.early = [];
              },
              data(_upstream, chunk) {
                if (!frozen) client.write(chunk);
              },
              close(upstream) {
                open.delete(upstream);
                client.end();
              },
              error() {},
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          if (frozen) return;
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.early.push(new Uint8Array(chunk));
        },
        close(client) {
          open.delete(client);
          client.data.upstream?.end();
        },
        error() {},
      },
    });
  };
  listen();
  const cut = () => {
    listener?.stop(true);
    listener = null;
    for (const socket of open) socket.terminate();
    open.clear();
  };
  return {
    port,
    cut,
    restore: () => {
      if (!listener) listen();
    },
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    close: cut,
  };
}

/** A relay in front of the server `url` points at, and the same URL through the relay (a database URL's user, password and name kept). */
export async function relayedUrl(url: string): Promise<{ relay: TcpRelay; url: string }> {
  const address = new URL(url);
  const relay = await startTcpRelay(Number(address.port));
  address.port = String(relay.port);
  return { relay, url: address.toString() };
}
