/**
 * `InProcessSchemaRegistry`: a Schema Registry for tests and the no-Kafka
 * quick start, speaking the Confluent REST subset the Schema Registry serdes
 * use (internal/registry-routes.ts), over the same in-memory store as the
 * `mock://` serdes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegistryAnswerError, RegistryStore } from '../serdes/schema-registry/registry-store.js';
import { route } from './internal/registry-routes.js';

/** Options of {@link InProcessSchemaRegistry.start}. */
export interface InProcessSchemaRegistryOptions {
  /** The port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Largest request body accepted, in bytes (default 1 MiB; larger: 413). */
  maxBodyBytes?: number;
}

const JSON_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * A Schema Registry served over HTTP on 127.0.0.1 from memory: subjects,
 * versions, ids, references and the BACKWARD compatibility check for Avro
 * (409 on an incompatible schema), with Confluent's error codes (40401
 * subject not found, 40402 version not found, 40403 schema not found, 409
 * incompatible, 42201 invalid schema). Routes: `POST /subjects/<s>/versions`,
 * `POST /subjects/<s>`, `GET /subjects[/<s>/versions[/<v or latest>[/schema]]]`,
 * `GET /schemas/ids/<id>`, `GET|PUT /config`.
 *
 * @example
 * ```ts
 * const registry = await InProcessSchemaRegistry.start();
 * const serde = SchemaRegistrySerdes.avro({ url: registry.url, schema });
 * // ...
 * await registry.close();
 * ```
 */
export class InProcessSchemaRegistry {
  readonly #server: Server;
  readonly #store = new RegistryStore();
  readonly #maxBody: number;
  #available = true;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;

  private constructor(server: Server, url: string, maxBody: number) {
    this.#server = server;
    this.url = url;
    this.#maxBody = maxBody;
  }

  /** Starts a registry on 127.0.0.1 (`port` 0 or absent: a free one). */
  static async start(options: InProcessSchemaRegistryOptions = {}): Promise<InProcessSchemaRegistry> {
    const holder: { registry?: InProcessSchemaRegistry } = {};
    const server = createServer((req, res) => {
      if (holder.registry !== undefined) holder.registry.#handle(req, res);
      else res.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const registry = new InProcessSchemaRegistry(server, `http://127.0.0.1:${port}`, options.maxBodyBytes ?? 1024 * 1024);
    holder.registry = registry;
    return registry;
  }

  /**
   * Simulates an outage: while false, every request answers 503 (error code
   * 50003), as a registry whose backend is down. Default true.
   */
  setAvailable(available: boolean): void {
    this.#available = available;
  }

  /** Stops serving (open connections are closed). */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > this.#maxBody && !refused) {
        refused = true;
        answer(res, 413, { error_code: 413, message: `Request body larger than ${this.#maxBody} bytes` });
        req.destroy();
      } else if (!refused) chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      if (!this.#available) return answer(res, 503, { error_code: 50003, message: 'Error while forwarding the request to the primary (simulated outage)' });
      let body: unknown;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        return answer(res, 400, { error_code: 400, message: 'Unexpected character in the JSON body' });
      }
      try {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        const out = route(this.#store, req.method ?? 'GET', path, body);
        answer(res, out.status, out.body);
      } catch (error) {
        if (error instanceof RegistryAnswerError) return answer(res, error.status, { error_code: error.errorCode, message: error.message });
        answer(res, 500, { error_code: 50001, message: 'Error in the backend data store' });
      }
    });
    req.on('error', () => undefined);
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
