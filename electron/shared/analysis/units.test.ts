import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { judgeChange } from './significance.ts';
import {
  bytesPerSecFrom,
  bytesPerSecTo,
  formatBytes,
  formatIops,
  formatLatency,
  formatNumber,
  formatPercent,
  formatRatio,
  formatThroughput,
  formatTick,
  parseThroughputUnit,
} from './units.ts';

describe('units', () => {
  it('converts MB (10^6), MiB (2^20) and KB (KiB, bonnie++ K) both ways', () => {
    assert.equal(bytesPerSecTo(132_673 * 1024, 'KB'), 132_673);
    assert.equal(bytesPerSecTo(300e6, 'MB'), 300);
    assert.equal(bytesPerSecTo(2 ** 30, 'MiB'), 1024);
    assert.equal(bytesPerSecFrom(40_300, 'KB'), 41_267_200);
  });

  it('writes axis ticks without the trailing zeros of a fixed precision', () => {
    assert.equal(formatTick(0.7), '0.7');
    assert.equal(formatTick(0.002), '0.002');
    assert.equal(formatTick(2.5), '2.5');
    assert.equal(formatTick(20), '20');
    assert.equal(formatTick(150.5), '150.5');
    assert.equal(formatTick(2000), '2,000');
    assert.equal(formatTick(0.0123), '0.0123');
  });

  it('labels every figure with its unit', () => {
    assert.equal(formatThroughput(41_267_200), '41.27 MB/s');
    assert.equal(formatThroughput(41_267_200, 'MiB'), '39.36 MiB/s');
    assert.equal(formatThroughput(41_267_200, 'KB'), '40,300 KiB/s');
    assert.equal(formatThroughput(3.5e9), '3,500 MB/s');
    assert.equal(formatIops(151.4, 'seeks/s'), '151.4 seeks/s');
    assert.equal(formatIops(98_765.4), '98,765 IOPS');
    assert.equal(formatLatency(850), '850 ns');
    assert.equal(formatLatency(85_300), '85.30 µs');
    assert.equal(formatLatency(8_200_000), '8.20 ms');
    assert.equal(formatLatency(1.25e9), '1.25 s');
    assert.equal(formatBytes(4096), '4 KiB');
    assert.equal(formatBytes(1.5 * 2 ** 30), '1.50 GiB');
  });

  it('writes ratios and percent changes the way the seed story reads', () => {
    assert.equal(formatRatio(132_673 / 40_300), '×3.29');
    assert.equal(formatRatio(69_805 / 132_673), '×0.53');
    assert.equal(formatRatio(10_524 / 151.4), '×69.5');
    assert.equal(formatRatio(250.4), '×250');
    // A fall as a factor where it counts: lower-is-better figures, and any ratio "×0.00" would hide.
    assert.equal(formatRatio(461e3 / 98e6, 'lower'), '213× lower');
    assert.equal(formatRatio(0.5, 'lower'), '2.00× lower');
    assert.equal(formatRatio(2, 'lower'), '×2.00', 'a rise of latency stays a plain factor');
    assert.equal(formatRatio(40e6 / 6_332e6), '158× lower', 'a throughput fall past ×0.1');
    assert.equal(formatRatio(0.53, 'higher'), '×0.53');
    assert.equal(formatPercent(229.21), '+229.2 %');
    assert.equal(formatPercent(-47.38), '-47.4 %');
    assert.equal(formatPercent(0.01), '±0.0 %');
    assert.equal(formatPercent(6851.12), '+6,851.1 %', 'grouped, as every other figure');
  });

  it('parses the unit names people type', () => {
    assert.equal(parseThroughputUnit('MB'), 'MB');
    assert.equal(parseThroughputUnit('mb/s'), 'MB');
    assert.equal(parseThroughputUnit('MiB'), 'MiB');
    assert.equal(parseThroughputUnit('KB'), 'KB');
    assert.equal(parseThroughputUnit('K/sec'), 'KB');
    assert.equal(parseThroughputUnit('GB'), null);
  });
});

test('no figure, ratio or percent is ever printed in exponent notation, however huge or tiny (#38)', () => {
  const exponent = /\de[+-]?\d/i;
  const huge = [1e21, 3.0145556583998014e21, 1e30, 1e100, 1.7e308];
  const tiny = [1e-7, 1.234e-7, 1e-13, 1e-30, 5e-324];
  for (const x of [...huge, ...tiny]) {
    for (const text of [
      formatRatio(x),
      formatRatio(x, 'lower'),
      formatNumber(x),
      formatNumber(-x),
      formatThroughput(x),
      formatThroughput(x, 'KB'),
      formatIops(x),
      formatLatency(x),
      formatBytes(x),
      formatPercent(x),
      formatPercent(-x),
      judgeChange({ value: 1, logSd: 0.01 }, { value: x, logSd: 0.01 })!.reason,
    ])
      assert.doesNotMatch(text, exponent, `${x}: ${text}`);
  }
  assert.equal(formatRatio(3.0145556583998014e21), '×3,014,555,658,399,801,400,000');
  assert.equal(formatNumber(1.234e-7), '0.000000123');
  assert.equal(formatNumber(1e-30), '<0.000000000001');
  assert.match(judgeChange({ value: 1, logSd: 0.01 }, { value: 12345, logSd: 0.01 })!.reason, /the change \(×12,345\)/);
});

test('a ratio of a thousand or more has its thousands separators, as every figure printed has (#43: "×1599")', () => {
  assert.equal(formatRatio(1599), '×1,599');
  assert.equal(formatRatio(1 / 1599), '1,599× lower');
  assert.equal(formatRatio(999.4), '×999');
  assert.match(judgeChange({ value: 1, logSd: 0.01 }, { value: 1599, logSd: 0.01 })!.reason, /the change \(×1,599\)/);
});
