// #38 items 8 and 22: a figure no disk or computer can give (1e30 B/s, a 99999999T test file) is
// refused at import by every importer, saying which entry of the file and why, through the one
// bound of sanity.ts; and an fio job entry repeated exactly is counted once and said, not summed.
// Each case is a real file published or made here (fixtures/) with one figure changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { exportJson, ImportError, parseImport } from './index.ts';
import { FIGURE_LIMITS } from './sanity.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-12-01T12:00:00.000Z');

/** The import fails with an ImportError whose message matches every pattern. */
function refused(text: string, fileName: string, ...said: RegExp[]): void {
  assert.throws(
    () => parseImport(text, fileName, { now: NOW }),
    (e: unknown) => {
      assert.ok(e instanceof ImportError, String(e));
      for (const pattern of said) assert.match(e.message, pattern);
      return true;
    },
  );
}

/** The fio document of a fixture (text before it kept) with `change` applied to its parsed JSON. */
function fioWith(name: string, change: (doc: { client_stats?: unknown[]; jobs?: unknown[] }) => void): string {
  const text = fixture(name);
  const start = text.search(/^\{/m);
  const doc = JSON.parse(text.slice(start)) as { client_stats?: unknown[]; jobs?: unknown[] };
  change(doc);
  return `${text.slice(0, start)}${JSON.stringify(doc, null, 2)}\n`;
}

type FioEntry = { jobname: string; hostname?: string; read: Record<string, unknown> & { clat_ns: { mean: number } } };

describe('fio: an entry repeated exactly is one measurement, said, not summed', () => {
  it('client mode: a host whose job entry is repeated byte for byte keeps its own rate, with a warning naming both entries', () => {
    const text = fixture('fio-3.33-client-2-hosts.json');
    const repeated = fioWith('fio-3.33-client-2-hosts.json', (doc) => doc.client_stats!.splice(1, 0, doc.client_stats![0]));
    const before = parseImport(text, 'client.json', { now: NOW });
    const after = parseImport(repeated, 'client.json', { now: NOW });
    const seqOf = (runs: typeof before) => runs[0]!.results.find((r) => r.test === 'seq1m-q8t1-read')!;
    assert.equal(seqOf(after).bytesPerSec, seqOf(before).bytesPerSec, 'not summed (413.8 MB/s, never 827.7)');
    assert.equal(seqOf(after).iops, seqOf(before).iops);
    const warning = seqOf(after).warnings.find((w) => w.code === 'repeated-entry');
    assert.ok(warning, 'said');
    assert.match(warning.message, /the entry at \.client_stats\[1\] \(line \d+\) repeats the one at \.client_stats\[0\] exactly/);
    assert.match(warning.message, /counted once, not summed/);
    assert.deepEqual(
      after.map((r) => r.results.length),
      before.map((r) => r.results.length),
    );
  });

  it('a plain fio file: a job entry repeated three times counts once; real clones of a job are still summed', () => {
    const repeated = fioWith('fio-3.33-json.json', (doc) => doc.jobs!.push(doc.jobs![0], doc.jobs![0]));
    const [run] = parseImport(repeated, 'fio.json', { now: NOW });
    const [plain] = parseImport(fixture('fio-3.33-json.json'), 'fio.json', { now: NOW });
    const first = plain!.results[0]!;
    const same = run!.results.find((r) => r.test === first.test)!;
    assert.equal(same.bytesPerSec, first.bytesPerSec);
    assert.match(same.warnings.find((w) => w.code === 'repeated-entry')!.message, /\(and 1 more\)/);
    // A clone: the same job with its own (different) figures is a measurement of its own, summed.
    const cloned = fioWith('fio-3.33-json.json', (doc) => {
      const clone = structuredClone(doc.jobs![0]) as FioEntry;
      clone.read.bw_bytes = (clone.read.bw_bytes as number) + 1;
      doc.jobs!.push(clone);
    });
    const summed = parseImport(cloned, 'fio.json', { now: NOW })[0]!.results.find((r) => r.test === first.test)!;
    assert.equal(summed.bytesPerSec, 2 * first.bytesPerSec! + 1);
    assert.ok(!summed.warnings.some((w) => w.code === 'repeated-entry'));
  });
});

describe('impossible figures are refused at import, naming the entry and why', () => {
  it('fio client mode: 1e30 B/s, 1e20 IOPS or a latency of years in one host entry', () => {
    const cases: Array<[string, (e: FioEntry) => void, RegExp]> = [
      ['a rate of 1e30 B/s', (e) => (e.read.bw_bytes = 1e30), /the rate 1,000,000,000,000,000,000,000,000 MB\/s is more than 1 PB\/s/],
      ['1e20 IOPS', (e) => (e.read.iops = 1e20), /the IOPS [\d,]+ IOPS is more than 100 billion/],
      ['a mean latency of 1e18 ns', (e) => (e.read.clat_ns.mean = 1e18), /the mean latency [\d,]+ s is more than 11\.6 days/],
    ];
    for (const [what, change, said] of cases) {
      const text = fioWith('fio-3.33-client-2-hosts.json', (doc) => change(doc.client_stats![1] as FioEntry));
      refused(text, 'client.json', said, /client\.json:\d+: /, /\(at \.client_stats\[1\]\.read\)/);
      assert.ok(what);
    }
  });

  it('bonnie++ CSV: a 99999999T test file and a rate of 1e15 K/sec', () => {
    const text = fixture('bonnie-2.00a-256m.csv');
    refused(
      text.replace(',256M,', ',99999999T,'),
      'bonnie.csv',
      /field file_size: "99999999T" [\d.]+ PiB is more than 1 PiB/,
      /bonnie\.csv:1:/,
    );
    refused(
      text.replace(',888,96,', ',1000000000000000,96,'),
      'bonnie.csv',
      /field putc: "1000000000000000" [\d,]+ MB\/s is more than 1 PB\/s/,
    );
    refused(
      text.replace(',19954us,', ',99999999999s,'),
      'bonnie.csv',
      /field \w+_latency: "99999999999s" [\d,]+ s is more than 11\.6 days/,
    );
  });

  it('CrystalDiskMark text: a rate past any disk, and a 99999999 GiB test', () => {
    const text = fixture('crystaldiskmark-8.txt');
    refused(
      text.replace('867.985 MB/s', '999999999999.985 MB/s'),
      'cdm.txt',
      /cdm\.txt:9: CrystalDiskMark test seq1m-q8t1-read: the rate [\d,]+ MB\/s is more than 1 PB\/s/,
    );
    refused(
      text.replace('Test: 64 MiB (x1)', 'Test: 99999999 GiB (x1)'),
      'cdm.txt',
      /cdm\.txt:27: .*the test size [\d.]+ PiB is more than 1 PiB/,
    );
  });

  it('KDiskMark text: a rate past any disk', () => {
    const text = fixture('kdiskmark-3.x.txt');
    const line = text.split('\n').findIndex((l) => /MB\/s/.test(l) && !/^\s*\*/.test(l));
    const rate = /(\d+\.\d+) MB\/s/.exec(text.split('\n')[line]!)![1]!;
    const lines = text.split('\n');
    lines[line] = lines[line]!.replace(`${rate} MB/s`, '9999999999999.999 MB/s');
    refused(lines.join('\n'), 'kdm.txt', new RegExp(`kdm\\.txt:${line + 1}: KDiskMark test .*the rate [\\d,]+ MB/s is more than 1 PB/s`));
  });

  it('DiskDelta JSON: a result, a sample, a figure, an extra or the test size past the limits (the backstop, for every format)', () => {
    const [run] = parseImport(fixture('fio-3.33-json.json'), 'fio.json', { now: NOW });
    const cases: Array<[string, (r: typeof run) => void, RegExp]> = [
      ['result rate', (r) => (r!.results[0]!.bytesPerSec = 1e30), /test seq1m-q8t1-read: the rate .* is more than 1 PB\/s/],
      ['test size', (r) => (r!.settings.sizeBytes = 2 ** 60), /the test size 1024 PiB is more than 1 PiB/],
      ['extra', (r) => r!.extras.push({ name: 'x', value: 1e16, unit: 'B/s' }), /extra x: the value .* is more than 1 PB\/s/],
      [
        'a sample',
        (r) =>
          r!.results[0]!.runs.push({
            run: 1,
            bytesPerSec: 1,
            iops: 1,
            latencyNs: { mean: null, p50: null, p90: null, p99: null, p999: null, max: null },
            elapsedNs: 1,
            ios: 1,
            bytes: 1,
            cpu: { userNs: 0, systemNs: 0 },
            samples: [{ tMs: 0, bytesPerSec: 1e20, iops: 1 }],
          }),
        /run 1: a sample's rate .* is more than 1 PB\/s/,
      ],
    ];
    for (const [what, change, said] of cases) {
      const copy = structuredClone(run);
      change(copy);
      refused(exportJson([copy!]), 'export.json', said);
      assert.ok(what);
    }
  });

  it('every fixture, ours and the ones others published, still imports: the limits are far above real figures', () => {
    assert.ok(FIGURE_LIMITS.rate.max >= 1e15 && FIGURE_LIMITS.size.max >= 2 ** 50);
    for (const name of [
      'fio-3.33-client-5-throttled-hosts.json',
      'fio-3.39-client-ssh-forwards.json',
      'bonnie-2.00a-1g-x2.csv',
      'kdiskmark-2.x.txt',
    ]) {
      assert.ok(parseImport(fixture(name), name, { now: NOW }).length > 0, name);
    }
  });
});
