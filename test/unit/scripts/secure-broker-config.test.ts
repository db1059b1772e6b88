/**
 * The secure broker's generated material (scripts/kafka/secure.mjs, certs.mjs), without a broker:
 * the certificates chain to the test CA (and not to the untrusted one), the broker's carries the
 * SANs clients verify, and server.properties has no anonymous way in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareSecure } from '../../../scripts/kafka/secure.mjs';
import { serverProperties } from '../../../scripts/kafka/server-config.mjs';

let hasOpenssl = true;
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
} catch {
  hasOpenssl = false;
}

(hasOpenssl ? describe : describe.skip)('secure broker configuration (openssl)', () => {
  const runDirectory = mkdtempSync(join(tmpdir(), 'sluice-secure-unit-'));
  afterAll(() => rmSync(runDirectory, { recursive: true, force: true }));
  const { props, formatArgs, secure } = prepareSecure({ runDirectory, port: 19301, mtlsPort: 19302, controllerPort: 19303 });
  const cert = (path: string) => new X509Certificate(readFileSync(path));

  it('certificates: broker and client signed by the CA, not by the untrusted CA; the broker has SAN IP:127.0.0.1 and DNS:localhost', () => {
    const ca = cert(secure.caPath);
    const untrusted = cert(secure.untrustedCaPath);
    const broker = cert(join(runDirectory, 'tls', 'broker.pem'));
    const client = cert(secure.clientCertPath);
    expect(broker.verify(ca.publicKey)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(broker.verify(untrusted.publicKey)).toBe(false);
    expect(broker.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(broker.subjectAltName).toContain('DNS:localhost');
    expect(client.subject).toContain('CN=sluice-mtls-client');
    expect(secure.clientPrincipal).toBe('User:sluice-mtls-client');
    // Private keys: unencrypted PKCS#8 (Kafka's PEM keystore), readable by the owner only.
    expect(readFileSync(secure.clientKeyPath, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(statSync(secure.clientKeyPath).mode & 0o077).toBe(0);
  });

  it('server.properties: SASL_SSL and mTLS listeners, TLS controller, authorizer that denies without an ACL, no anonymous super user', () => {
    const text = serverProperties({ port: 19301, controllerPort: 19303, dataDir: '/data', overrides: props });
    const get = (key: string) => new RegExp(`^${key.replace(/\./g, '\\.')}=(.*)$`, 'm').exec(text)?.[1];
    expect(get('listeners')).toBe('CLIENT://127.0.0.1:19301,MTLS://127.0.0.1:19302,CONTROLLER://127.0.0.1:19303');
    expect(get('listener.security.protocol.map')).toBe('CLIENT:SASL_SSL,MTLS:SSL,CONTROLLER:SSL');
    expect(get('listener.name.mtls.ssl.client.auth')).toBe('required');
    expect(get('listener.name.controller.ssl.client.auth')).toBe('required');
    expect(get('sasl.enabled.mechanisms')).toBe('SCRAM-SHA-512,SCRAM-SHA-256,PLAIN,OAUTHBEARER');
    expect(get('authorizer.class.name')).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    expect(get('allow.everyone.if.no.acl.found')).toBe('false');
    expect(get('super.users')).toBe('User:admin;User:sluice-broker');
    expect(text).not.toMatch(/PLAINTEXT/);
    expect(text.match(/^listeners=/gm)).toHaveLength(1); // overrides replace, never duplicate
  });

  it('users: random passwords, SCRAM-SHA-512 and -256 credentials for each at format time, the same for PLAIN', () => {
    const names = Object.keys(secure.users);
    expect(names).toContain('admin');
    expect(new Set(names.map((n) => secure.users[n]!.password)).size).toBe(names.length);
    for (const name of names) {
      const { password } = secure.users[name]!;
      expect(password).toMatch(/^[0-9a-f]{24}$/);
      expect(formatArgs).toContain(`SCRAM-SHA-512=[name=${name},password=${password}]`);
      expect(formatArgs).toContain(`SCRAM-SHA-256=[name=${name},password=${password}]`);
      expect(props['listener.name.client.plain.sasl.jaas.config']).toContain(`user_${name}="${password}"`);
    }
  });
});
