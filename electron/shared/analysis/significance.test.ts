import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeChange, logSpreadOfCv, logSpreadOfValues } from './significance.ts';

const sample = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { value: median, logSd: logSpreadOfValues(values) };
};

describe('the significance rule on skewed runs', () => {
  const hdd = sample([149.8, 150.0, 150.1, 149.9, 150.2, 150.0]);
  // Six SSD runs, the slowest 15× the hard disk's cap: skewed far to the low side.
  const ssd = sample([2250, 6000, 12_000, 13_860, 20_000, 30_000]);

  it('calls the ×86 gain real whichever side is the baseline', () => {
    assert.equal(judgeChange(hdd, ssd)!.beyond, true);
    assert.equal(judgeChange(ssd, hdd)!.beyond, true);
    assert.match(judgeChange(hdd, ssd)!.reason, /change \(×86\.2\) exceeds 2× the runs' combined spread/);
  });

  it('judges a rate and its inverse (a time) alike', () => {
    const inverse = (values: number[]) => sample(values.map((v) => 1 / v));
    const a = [100, 104, 97, 60];
    const b = [130, 128, 133, 70];
    assert.equal(judgeChange(sample(a), sample(b))!.beyond, judgeChange(inverse(a), inverse(b))!.beyond);
  });

  it('never calls ties a change: equal runs, equal medians, or one constant value', () => {
    assert.equal(judgeChange(ssd, ssd)!.beyond, false);
    assert.equal(judgeChange(sample([5, 5, 5]), sample([5, 5, 5]))!.beyond, false);
    assert.equal(judgeChange(sample([90, 100, 110]), sample([80, 100, 120]))!.beyond, false);
  });

  it('still calls a small change with tight runs real and a large one with wild runs noise', () => {
    assert.equal(judgeChange(sample([100, 101, 99]), sample([110, 111, 109]))!.beyond, true);
    assert.equal(judgeChange(sample([10, 100, 1000]), sample([30, 300, 3000]))!.beyond, false);
  });

  it('has no judgement without a spread on both sides, nor for a zero', () => {
    assert.equal(judgeChange({ value: 1, logSd: null }, hdd), null);
    assert.equal(judgeChange({ value: 0, logSd: 0.1 }, hdd), null);
    assert.equal(logSpreadOfValues([7]), null);
  });

  it('takes a coefficient of variation as the log-normal spread', () => {
    assert.ok(Math.abs(logSpreadOfCv(0.05) - 0.05) < 0.001);
    assert.ok(logSpreadOfCv(1) < 1); // √ln 2: a wide CV is narrower on the log scale
  });
});
