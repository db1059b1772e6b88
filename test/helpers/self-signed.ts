/**
 * A throw-away self-signed certificate for 127.0.0.1 and localhost (openssl,
 * which CI has), for the TLS tests of the query, UI and metrics servers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM certificate and key, and the paths they were written to (removed by `dispose`). */
export interface SelfSigned {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
  dispose(): void;
}

export function selfSigned(): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tls-'));
  const keyPath = join(dir, 'server.key');
  const certPath = join(dir, 'server.crt');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
