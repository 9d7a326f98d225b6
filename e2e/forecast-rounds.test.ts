import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forecastRounds, runFigures } from './forecast-rounds.ts';

const result = (name: string, bps: number) => JSON.stringify({ v: 1, type: 'result', job: 0, name, run: 1, bytes_per_sec: bps });
const run = (read: number, write: number) =>
  [
    JSON.stringify({ v: 1, type: 'hello', worker: 'diskdelta-worker' }),
    result('seq1m-q8t1-read', read),
    result('seq1m-q8t1-write', write),
    '{"v":1,"type":"done","status":"ok","exit_code":0}',
  ].join('\n');
const cipherLine = (threads: number, enc: number, dec: number) =>
  JSON.stringify({
    v: 1,
    type: 'cipher',
    backend: 'af_alg',
    label: 'kernel',
    cipher: 'aes-xts-plain64',
    key_bits: 512,
    kernel_name: 'xts(aes)',
    sector: 65536,
    threads,
    encrypt_bps: enc,
    decrypt_bps: dec,
    seconds: 0.5,
  });
const ciphers = (one: [number, number], all: [number, number]) =>
  [
    JSON.stringify({ v: 1, type: 'hello', verb: 'ciphers', backend: 'af_alg', cpus: 2 }),
    cipherLine(1, ...one),
    cipherLine(2, ...all),
    '{"v":1,"type":"done","status":"ok","exit_code":0}',
  ].join('\n');

test("each round's forecast comes from that round's own plain figure and cipher", () => {
  // Round 1 at full speed, round 2 with the emulated CPU at half: the mapping follows the
  // cipher in both, so the per-round ratios stay at 1 while the figures halve.
  const rounds = [
    { plain: run(1.5e9, 1.6e9), cipher: ciphers([40e6, 38e6], [70e6, 80e6]), dmcrypt: run(80e6, 70e6) },
    { plain: run(1.4e9, 1.5e9), cipher: ciphers([20e6, 19e6], [35e6, 40e6]), dmcrypt: run(40e6, 35e6) },
  ];
  const [read, write] = forecastRounds(rounds, ['seq1m-q8t1-read', 'seq1m-q8t1-write'], 'aes-xts-plain64', 512);
  // QD8 on 2 CPUs: the cipher on both CPUs sets the pace (decrypt for a read, encrypt for a write).
  assert.deepEqual(
    read!.forecast.map((f) => f.estimatedBytesPerSec),
    [80e6, 40e6],
  );
  assert.deepEqual(read!.ratios, [1, 1]);
  assert.deepEqual(
    write!.forecast.map((f) => f.estimatedBytesPerSec),
    [70e6, 35e6],
  );
  assert.deepEqual(write!.plain, [1.6e9, 1.5e9]);
  assert.deepEqual(write!.dmcrypt, [70e6, 35e6]);
  assert.equal(read!.forecast[0]!.ceiling, 'cipher');
});

test('a forecast 30 % above the mapping reads 1.3 in every round', () => {
  const rounds = [1, 0.5, 0.8].map((speed) => ({
    plain: run(1.5e9, 1.5e9),
    cipher: ciphers([40e6 * speed, 40e6 * speed], [65e6 * speed, 65e6 * speed]),
    dmcrypt: run(50e6 * speed, 50e6 * speed),
  }));
  const [read] = forecastRounds(rounds, ['seq1m-q8t1-read'], 'aes-xts-plain64', 512);
  assert.deepEqual(
    read!.ratios.map((r) => Number(r.toFixed(6))),
    [1.3, 1.3, 1.3],
  );
});

test('a round without a figure is named, not skipped', () => {
  const rounds = [
    { plain: run(1.5e9, 1.6e9), cipher: ciphers([40e6, 38e6], [70e6, 80e6]), dmcrypt: run(80e6, 70e6) },
    {
      plain: run(1.5e9, 1.6e9),
      cipher: ciphers([40e6, 38e6], [70e6, 80e6]),
      dmcrypt: '{"v":1,"type":"done","status":"error","exit_code":5}',
    },
  ];
  assert.throws(
    () => forecastRounds(rounds, ['seq1m-q8t1-read'], 'aes-xts-plain64', 512),
    /round 2: no seq1m-q8t1-read figure through dm-crypt/,
  );
  assert.throws(
    () =>
      forecastRounds(
        [{ ...rounds[0]!, cipher: '{"v":1,"type":"hello","verb":"ciphers","backend":"af_alg","cpus":2}' }],
        ['seq1m-q8t1-read'],
        'aes-xts-plain64',
        512,
      ),
    /round 1: the worker measured no aes-xts-plain64 512-bit figure/,
  );
});

test("runFigures reads the worker's result lines only", () => {
  assert.deepEqual(
    [...runFigures(`${run(1, 2)}\n{"v":1,"type":"sample","name":"x","bytes_per_sec":9}\nnot json`)],
    [
      ['seq1m-q8t1-read', 1],
      ['seq1m-q8t1-write', 2],
    ],
  );
});
