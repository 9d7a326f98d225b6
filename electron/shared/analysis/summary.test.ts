// The report's summary: sentences from the comparison, one section per analysis, nothing shown
// for an analysis that has nothing to say.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import type { RunRecord, TestResult } from '../model/results.ts';
import type { StackLayer } from '../model/machine.ts';
import { compareRuns } from './compare.ts';
import { summarize, SUMMARY_ANALYSES, trimSummary, upgradeSummary, type SummaryAnalysis } from './summary.ts';

const reference = (await loadReferenceRuns()).slice(0, 3);
const input = (records: RunRecord[]) => ({ records, comparison: compareRuns(records) });

function measuredRun(label: string, seqRead: number, cv: number, stack?: StackLayer[]): RunRecord {
  const result: TestResult = {
    test: 'seq1m-q8t1-read',
    params: { rw: 'read', blockSize: 1 << 20, queueDepth: 8, threads: 1 },
    bytesPerSec: seqRead,
    iops: seqRead / (1 << 20),
    latencyNs: null,
    best: null,
    cv,
    runs: [],
    histogram: [],
    cpu: null,
    underResolved: false,
    warnings: [],
  };
  return {
    label,
    notes: '',
    createdAt: '2026-11-30T00:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt', kind: 'folder', ...(stack ? { stack } : {}) },
    settings: {},
    engine: { name: 'diskdelta', version: '0.1.0' },
    results: [result],
    extras: [],
    warnings: [],
  };
}

describe('upgradeSummary', () => {
  it('tells each run against the baseline: ×3.29 and seeks ×69.5 HDD → SSD, ×1.73 for the SSD through dm-crypt', () => {
    const section = upgradeSummary(input(reference));
    assert.ok(section);
    assert.equal(section.paragraphs.length, 2);
    const [first, second] = section.paragraphs as [string, string];
    assert.match(first, /^#2 Intel 320 SSD.* against #1 Laptop hard disk/);
    assert.match(first, /Sequential read ×3\.29 faster \(41\.27 MB\/s → 135\.9 MB\/s\)/);
    assert.match(first, /Random seeks ×69\.5 faster \(151\.4 seeks\/s → 10,524 seeks\/s \(under-resolved\)\)/);
    assert.match(first, /many small files .* will start much faster/);
    assert.match(
      second,
      /^#3 Intel 320 SSD \+ dm-crypt.* against #1 Laptop hard disk.*: Sequential read ×1\.73 faster \(41\.27 MB\/s → 71\.48 MB\/s\)/,
    );
    assert.doesNotMatch(second, /start much faster/);
  });

  it('never compares neighbours in the order of picking: each run against #1, the baseline chosen (#39)', () => {
    // `report 2 3 10`: the new SSD picked first, the 2011 hard disk second, a second SSD third.
    const ssd = measuredRun('new SSD (zram)', 2000e6, 0.01);
    const hdd = reference[0]!;
    const section = upgradeSummary(
      input([ssd, { ...hdd, results: [{ ...hdd.results[0]!, test: 'seq1m-q8t1-read' }] }, measuredRun('other SSD', 1900e6, 0.01)]),
    );
    const [second, third] = section!.paragraphs as [string, string];
    assert.match(second, /^#2 Laptop hard disk.* against #1 new SSD \(zram\): Sequential read 48\.5× lower/);
    assert.match(third, /^#3 other SSD against #1 new SSD \(zram\): Sequential read ×0\.95/);
    assert.doesNotMatch(section!.paragraphs.join(' '), /From #|to #3|later setup/);
  });

  it('calls a change inside the runs’ spread what it is', () => {
    const section = upgradeSummary(input([measuredRun('a', 500e6, 0.2), measuredRun('b', 520e6, 0.2)]));
    assert.match(section!.paragraphs[0]!, /×1\.04 faster, within the runs’ spread: may be noise/);
    assert.doesNotMatch(section!.paragraphs[0]!, /fraction of the time/);
  });

  it('has nothing to say about a single run', () => {
    assert.equal(upgradeSummary(input(reference.slice(0, 1))), null);
  });
});

describe('trimSummary', () => {
  const liveStack: StackLayer[] = [
    { kind: 'file', name: '/mnt', details: {} },
    { kind: 'mount', name: '/mnt', details: { fsType: 'ext4', onlineDiscard: 'off' } },
    { kind: 'dm-crypt', name: 'dm-0', details: {}, encrypted: true, discardPasses: false },
    { kind: 'disk', name: 'sda', details: {}, discardPasses: true },
  ];

  it('says where discards stop, per run with a live stack', () => {
    const section = trimSummary(input([measuredRun('ssd', 500e6, 0.01, liveStack)]));
    assert.deepEqual(section?.paragraphs, [
      '#1 ssd: online discard off; discards stop at dm-crypt dm-0, so neither online discard nor fstrim reaches the disk; whether fstrim.timer is enabled is unknown.',
    ]);
  });

  it('says what inspect says: an enabled timer systemd never runs does not fire; "on", never "on (on)"', () => {
    const on = liveStack.map((l) => (l.kind === 'mount' ? { ...l, details: { ...l.details, onlineDiscard: 'on' } } : l));
    const run = measuredRun('ssd', 500e6, 0.01, on);
    run.system = {
      ...run.system!,
      fstrimTimer: {
        enabled: true,
        systemdRunning: false,
        reason: 'enabled, but systemd is not the running init here, so it does not fire',
      },
    };
    const [text] = trimSummary(input([run]))!.paragraphs;
    assert.match(text!, /online discard on; /);
    assert.doesNotMatch(text!, /on \(on\)|weekly fstrim\.timer is enabled/);
    assert.match(text!, /fstrim\.timer is enabled but does not fire: systemd is not the running init here/);
  });

  it('stays silent for published runs whose one-line stack answers nothing', async () => {
    assert.equal(trimSummary(input(reference)), null);
    const discardRefs = (await loadReferenceRuns()).slice(3);
    assert.equal(trimSummary(input(discardRefs)), null, 'nor for the 2013 pair, whose stack names a mount it never read');
  });
});

describe('summarize', () => {
  it('keeps the analyses’ order and leaves out those with nothing to say: no empty heading', () => {
    const encryption: SummaryAnalysis = () => null;
    const other: SummaryAnalysis = () => ({ id: 'other', title: 'Other', paragraphs: ['x'] });
    const empty: SummaryAnalysis = () => ({ id: 'empty', title: 'Empty', paragraphs: [] });
    const sections = summarize(input(reference), [...SUMMARY_ANALYSES, encryption, empty, other]);
    assert.deepEqual(
      sections.map((s) => s.id),
      ['upgrade', 'other'],
    );
  });
});
