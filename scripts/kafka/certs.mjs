// PEM certificates of the secure local broker, generated with openssl at each
// start into the run directory (nothing is committed, nothing outlives the run):
// - ca.pem / ca.key: the test CA every client trusts;
// - broker.pem / broker.key (+ broker-keystore.pem, key then chain, for Kafka's
//   PEM keystore): signed by the CA, SAN IP:127.0.0.1 and DNS:localhost, usable
//   as server and as client (the broker talks to its own controller over mTLS);
// - client.pem / client.key: a client certificate signed by the CA, for the
//   mutual-TLS listener (principal from its CN);
// - untrusted-ca.pem: a second, unrelated CA (a client trusting only it must
//   reject the broker).
// Keys are EC P-256 in unencrypted PKCS#8 (what Kafka's PEM keystore reads;
// generated in milliseconds, unlike RSA).
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KafkaSetupError } from './prereq.mjs';

const DAYS = '30';

function openssl(args, cwd) {
  const res = spawnSync('openssl', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.error) {
    throw new KafkaSetupError(`openssl not found: the secure broker (--secure) generates its certificates with openssl (e.g. apt-get install openssl)`);
  }
  if (res.status !== 0) throw new KafkaSetupError(`openssl ${args[0]} failed (exit ${res.status}): ${res.stderr}`);
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

function selfSignedCa(dir, name, cn) {
  openssl(['req', '-x509', ...EC, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', DAYS, '-subj', `/O=sluice/CN=${cn}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
}

function signed(dir, name, cn, extensions) {
  writeFileSync(join(dir, `${name}.ext`), `${extensions}\n`);
  openssl(['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/O=sluice/CN=${cn}`], dir);
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`,
    '-days', DAYS, '-extfile', `${name}.ext`], dir);
}

/** Common names of the generated certificates (the principal mapping keeps the CN). */
export const BROKER_CN = 'sluice-broker';
export const CLIENT_CN = 'sluice-mtls-client';

/**
 * Generates the CA, broker, client and untrusted-CA certificates into `dir`.
 * Steps: 1. the CA; 2. the broker certificate (server and client auth, SANs);
 * 3. the client certificate; 4. the unrelated CA; 5. the broker's PEM keystore
 * file (key + chain); 6. keys readable by the owner only.
 * @returns {{ caPath: string, brokerKeystorePath: string, clientCertPath: string, clientKeyPath: string, untrustedCaPath: string }}
 */
export function generateCertificates(dir) {
  selfSignedCa(dir, 'ca', 'sluice-test-ca');
  signed(dir, 'broker', BROKER_CN,
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment');
  signed(dir, 'client', CLIENT_CN, 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature');
  selfSignedCa(dir, 'untrusted-ca', 'sluice-untrusted-ca');
  const keystore = join(dir, 'broker-keystore.pem');
  writeFileSync(keystore, readFileSync(join(dir, 'broker.key'), 'utf8') + readFileSync(join(dir, 'broker.pem'), 'utf8') + readFileSync(join(dir, 'ca.pem'), 'utf8'));
  for (const key of ['ca.key', 'broker.key', 'client.key', 'untrusted-ca.key', 'broker-keystore.pem']) chmodSync(join(dir, key), 0o600);
  return {
    caPath: join(dir, 'ca.pem'),
    brokerKeystorePath: keystore,
    clientCertPath: join(dir, 'client.pem'),
    clientKeyPath: join(dir, 'client.key'),
    untrustedCaPath: join(dir, 'untrusted-ca.pem'),
  };
}
