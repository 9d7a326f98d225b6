import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thisCpu, type CipherCeilings } from '../crypto/cipher-ceilings.ts';
import { openLibrary } from '../store/library.ts';
import { cryptoPort } from './crypto-port.ts';

const measurement = async (mbps: number): Promise<CipherCeilings> => {
  const cpu = await thisCpu();
  return {
    source: 'user-space-estimate',
    sourceLabel: 'user-space estimate (OpenSSL)',
    backend: 'openssl',
    cpus: cpu.cpus,
    cpu: { model: cpu.model, aesNi: true, vaes: false, flags: [] },
    figures: [
      {
        cipher: 'aes-xts-plain64',
        keyBits: 512,
        kernelName: 'xts(aes)',
        sectorBytes: 65536,
        threads: 1,
        encryptBps: mbps,
        decryptBps: mbps,
      },
    ],
    unavailable: [],
    warnings: [],
    measuredAt: new Date().toISOString(),
    windowSeconds: 0.2,
    rounds: 5,
  };
};

test('a measurement is kept in the library: the next session offers it without measuring', async () => {
  const library = openLibrary({ dbPath: ':memory:' });
  try {
    let measured = 0;
    const measure = async () => measurement(++measured * 1e9);
    const first = cryptoPort(measure, library);
    assert.equal(await first.ciphers(false), null, 'nothing kept yet');
    const kept = await first.ciphers(true);
    // A new session (the app restarted) over the same library: the stored one, no new measurement.
    const next = cryptoPort(measure, library);
    assert.deepEqual(await next.ciphers(false), kept);
    assert.equal(measured, 1);
    // Measuring again replaces it as the newest.
    const again = await next.ciphers(true);
    assert.equal(again?.figures[0]?.encryptBps, 2e9);
    assert.deepEqual(await cryptoPort(measure, library).ciphers(false), again);
  } finally {
    library.close();
  }
});
