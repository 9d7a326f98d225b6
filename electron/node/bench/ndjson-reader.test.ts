// The worker-output reader under fuzzing (bounded here; `npm run fuzz` runs it for minutes),
// plus the cases a real worker produces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createNdjsonReader } from './ndjson-reader.ts';
import { anyBytes, overlong, roundTrip } from './ndjson-reader.fuzz.ts';
import type { WorkerMessage } from './worker-protocol.ts';

test('valid messages cut into chunks anywhere come back exactly (fuzzed)', () => {
  fc.assert(roundTrip, { numRuns: 300 });
});

test('arbitrary bytes: never throws, only schema-valid messages, every line accounted for (fuzzed)', () => {
  fc.assert(anyBytes, { numRuns: 300 });
});

test('an overlong line is dropped with one report and does not swallow its neighbours (fuzzed)', () => {
  fc.assert(overlong, { numRuns: 100 });
});

test('a last line without its newline is still read at the end of the stream', () => {
  const got: WorkerMessage[] = [];
  const reader = createNdjsonReader({ onMessage: (m) => got.push(m) });
  reader.push('{"v":1,"type":"done","status":"ok","exit_code":0}');
  assert.equal(got.length, 0, 'not before the end: the line may go on');
  reader.end();
  assert.deepEqual(got, [{ v: 1, type: 'done', status: 'ok', exit_code: 0 }]);
});

test('a multi-byte character split between two chunks is decoded whole', () => {
  const got: WorkerMessage[] = [];
  const bytes = Buffer.from('{"v":1,"type":"warning","code":"x","message":"µs ✓"}\n');
  const reader = createNdjsonReader({ onMessage: (m) => got.push(m) });
  const split = bytes.indexOf(0xb5); // the second byte of µ
  reader.push(bytes.subarray(0, split));
  reader.push(bytes.subarray(split));
  reader.end();
  assert.equal(got[0]?.type === 'warning' ? got[0].message : '', 'µs ✓');
});
