import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError, parseCount, parseDate, parseDuration, parseFlags, parseSize } from './args.ts';

/** The call throws a UsageError whose message names the flag and the bad value. */
function rejects(fn: () => unknown, flag: string, value: string) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof UsageError, `a UsageError, got ${String(error)}`);
    assert.ok(error.message.includes(flag), `names ${flag}: ${error.message}`);
    assert.ok(error.message.includes(`'${value}'`), `quotes '${value}': ${error.message}`);
    return true;
  });
}

describe('parseSize', () => {
  test('binary and decimal units, as documented', () => {
    assert.equal(parseSize('256MiB', '--size'), 256 * 2 ** 20);
    assert.equal(parseSize('1GiB', '--size'), 2 ** 30);
    assert.equal(parseSize('1G', '--size'), 2 ** 30); // a bare letter is binary, as in fio and dd
    assert.equal(parseSize('512M', '--size'), 512 * 2 ** 20);
    assert.equal(parseSize('500MB', '--size'), 500e6);
    assert.equal(parseSize('1.5GB', '--size'), 1.5e9);
    assert.equal(parseSize('4096', '--size'), 4096);
    assert.equal(parseSize('1gib', '--size'), 2 ** 30, 'units are case-insensitive');
    assert.equal(parseSize('2TiB', '--size'), 2 * 2 ** 40);
  });

  test('malformed sizes are usage errors naming the flag and the value', () => {
    for (const bad of ['1XB', '-1G', '', 'abc', '1 G B', '1e9', 'GiB', '0', '0MiB']) rejects(() => parseSize(bad, '--size'), '--size', bad);
  });

  test('a size past 1 PiB is refused by the flag parser, not as a schema error about sizeBytes', () => {
    assert.equal(parseSize('1024TiB', '--size'), 2 ** 50);
    for (const big of ['1025TiB', '9999999999999999TiB']) rejects(() => parseSize(big, '--size'), '--size', big);
    assert.throws(() => parseSize('1025TiB', '--size'), /too large: use at most 1PiB/);
  });
});

describe('parseDate', () => {
  test('real calendar dates, leap days included', () => {
    assert.equal(parseDate('2026-01-31', '--since'), '2026-01-31');
    assert.equal(parseDate(' 2024-02-29 ', '--since'), '2024-02-29');
    assert.equal(parseDate('2000-02-29', '--since'), '2000-02-29');
  });

  test('every impossible or malformed date is a UsageError naming the flag, never a RangeError', () => {
    for (const bad of [
      '2026-13-01',
      '2026-01-32',
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '0000-00-00',
      '2026-00-10',
      '2026-1-5',
      '26-01-01',
      'yesterday',
      '',
    ]) {
      rejects(() => parseDate(bad, '--since'), '--since', bad);
    }
  });
});

describe('parseDuration', () => {
  test('seconds, with or without a unit', () => {
    assert.equal(parseDuration('5', '--duration'), 5);
    assert.equal(parseDuration('1.5', '--duration'), 1.5);
    assert.equal(parseDuration('1.5s', '--duration'), 1.5);
    assert.equal(parseDuration('500ms', '--duration'), 0.5);
    assert.equal(parseDuration('2m', '--duration'), 120);
    assert.equal(parseDuration('3S', '--duration'), 3);
  });

  test('malformed or empty durations are usage errors naming the flag and the value', () => {
    for (const bad of ['', 'abc', '-1', '0', '0s', '5h', '1.5.2', 's']) rejects(() => parseDuration(bad, '--duration'), '--duration', bad);
  });
});

describe('parseCount', () => {
  test('whole numbers in range', () => {
    assert.equal(parseCount('3', '--runs', 1, 100), 3);
    assert.equal(parseCount('1', '--runs', 1, 100), 1);
    assert.equal(parseCount('100', '--runs', 1, 100), 100);
  });

  test('fractions, negatives, words and out-of-range values are refused', () => {
    for (const bad of ['0', '101', '1.5', '-1', 'x', '', '3x']) rejects(() => parseCount(bad, '--runs', 1, 100), '--runs', bad);
  });
});

describe('parseFlags', () => {
  test('an unknown flag is a usage error that names it', () => {
    assert.throws(
      () => parseFlags(['--colour', 'red'], { target: { type: 'string' } }),
      (e: unknown) => e instanceof UsageError && e.message.includes('--colour'),
    );
  });
  test('known flags parse', () => {
    const { values } = parseFlags(['--target', '/x', '--json'], { target: { type: 'string' }, json: { type: 'boolean' } });
    assert.deepEqual({ ...values }, { target: '/x', json: true });
  });
});
