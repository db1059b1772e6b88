/**
 * What the query contract cases share: a free port to advertise before the
 * query server listens on it, and a GET that answers status and parsed JSON.
 */
import { createServer } from 'node:net';

/** A free port on 127.0.0.1 (the app must advertise it before it listens). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** GETs `url` (no redirects followed): the status and the body parsed as JSON (the text when it is not JSON). */
export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { redirect: 'manual' });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}
