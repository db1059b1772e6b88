/**
 * The clients of the UI's `/events` stream, with backpressure: a frame is
 * written to a client only while the data it has not taken yet stays under
 * `maxBufferedBytes`. A client behind that gets no further frames until its
 * socket drains, and then only the newest one (frames are whole snapshots, so
 * a skipped one is not missed). A client that does not drain within
 * `stallMs` is disconnected. At most `maxClients` streams are open at once.
 * So the memory a client can hold is bounded by one buffer, and the count of
 * clients by `maxClients`, whatever the clients do.
 */
import type { ServerResponse } from 'node:http';

/** Limits of the event stream. */
export interface EventStreamLimits {
  maxClients: number;
  maxBufferedBytes: number;
  stallMs: number;
}

interface Client {
  res: ServerResponse;
  /** Since when it has been waiting for its socket to drain (undefined: keeping up). */
  behindSince: number | undefined;
  /** A newer frame came while it was behind: it gets the newest one on drain. */
  pending: boolean;
}

/** The open event streams. */
export class EventClients {
  readonly #clients = new Map<ServerResponse, Client>();
  #latest: string | undefined;

  constructor(private readonly limits: EventStreamLimits) {}

  get size(): number {
    return this.#clients.size;
  }

  /** Whether another client may connect. */
  get full(): boolean {
    return this.#clients.size >= this.limits.maxClients;
  }

  /** Adds `res` (already answered 200); `onGone` runs when it closes. */
  add(res: ServerResponse, onGone: () => void): void {
    const client: Client = { res, behindSince: undefined, pending: false };
    this.#clients.set(res, client);
    res.on('drain', () => {
      client.behindSince = undefined;
      if (client.pending && this.#latest !== undefined) this.#write(client, this.#latest);
    });
    res.on('close', () => {
      this.#clients.delete(res);
      onGone();
    });
  }

  /** Sends `frame` to `res` alone (its first snapshot). */
  sendTo(res: ServerResponse, frame: string): void {
    const client = this.#clients.get(res);
    if (client) this.#write(client, frame);
  }

  /** Sends `frame` to every client keeping up; the others get the newest frame once they drain. */
  broadcast(frame: string, now = Date.now()): void {
    this.#latest = frame;
    for (const client of this.#clients.values()) {
      if (client.behindSince !== undefined) {
        if (now - client.behindSince > this.limits.stallMs) client.res.destroy();
        client.pending = true;
        continue;
      }
      this.#write(client, frame);
    }
  }

  /** Ends every stream. */
  endAll(): void {
    for (const client of this.#clients.values()) client.res.end();
    this.#clients.clear();
  }

  #write(client: Client, frame: string): void {
    const { res } = client;
    if (res.writableLength > this.limits.maxBufferedBytes) {
      client.behindSince ??= Date.now();
      client.pending = true;
      return;
    }
    client.pending = false;
    if (!res.write(frame)) client.behindSince ??= Date.now();
  }
}
