#!/usr/bin/env node
// Compares the protocol versions a Kafka broker accepts (ApiVersions v0, sent
// over a raw socket) with those kafkajs implements. kafkajs picks
// min(its newest, the broker's newest) and never checks the broker's OLDEST
// version, so an API whose broker minimum is above kafkajs' newest fails at
// run time with UNSUPPORTED_VERSION. Lists every API kafkajs uses.
//   node scripts/kafka/api-versions.mjs 127.0.0.1:9092
import { createRequire } from 'node:module';
import net from 'node:net';

const require = createRequire(import.meta.url);
const { requests } = require('kafkajs/src/protocol/requests/index.js');
const apiKeys = require('kafkajs/src/protocol/requests/apiKeys.js');

const [host, port] = (process.argv[2] ?? process.env.KAFKA_BROKERS?.split(',')[0] ?? '127.0.0.1:9092').split(':');

function apiVersions() {
  return new Promise((resolve, reject) => {
    const clientId = Buffer.from('sluice-api-versions');
    const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
    body.writeInt16BE(18, 0); // ApiVersions
    body.writeInt16BE(0, 2); // v0
    body.writeInt32BE(1, 4); // correlation id
    body.writeInt16BE(clientId.length, 8);
    clientId.copy(body, 10);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);
    const socket = net.connect({ host, port: Number(port) }, () => socket.write(Buffer.concat([size, body])));
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        socket.end();
        const out = new Map();
        const n = buf.readInt32BE(10);
        for (let i = 0, o = 14; i < n; i++, o += 6) out.set(buf.readInt16BE(o), [buf.readInt16BE(o + 2), buf.readInt16BE(o + 4)]);
        resolve(out);
      }
    });
    socket.on('error', reject);
  });
}

const broker = await apiVersions();
let problems = 0;
console.log('api                         kafkajs   broker   used');
for (const [name, key] of Object.entries(apiKeys)) {
  const versions = (requests[name]?.versions ?? []).map(Number);
  if (versions.length === 0) continue;
  const kjsMax = Math.max(...versions);
  const range = broker.get(key);
  let used = '-';
  let note = '';
  if (!range) note = '  <- broker does not offer this API';
  else {
    used = `v${Math.min(kjsMax, range[1])}`;
    if (kjsMax < range[0]) {
      note = `  <- FAILS: kafkajs max v${kjsMax} < broker min v${range[0]}`;
      problems++;
    }
  }
  console.log(`${name.padEnd(28)}${`v${Math.min(...versions)}-v${kjsMax}`.padEnd(10)}` + `${range ? `v${range[0]}-v${range[1]}` : 'none'}`.padEnd(9) + used + note);
}
console.log(problems ? `${problems} API(s) unusable by kafkajs` : 'every API kafkajs implements is usable');
