// fio JSON import against real fio 3.33 output made on this machine (json, json+, notes
// before the document, normal output after it): every mapped number is checked against the
// document, read here with plain JSON.parse.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestResult } from '../../shared/model/results.ts';
import { detectFormat, ImportError, parseImport } from './index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2026-11-29T12:00:00.000Z');

type Dir = {
  bw_bytes: number;
  iops: number;
  total_ios: number;
  clat_ns: { mean: number; max: number; percentile?: Record<string, number>; bins?: Record<string, number> };
};
type Job = {
  jobname: string;
  'job options': Record<string, string>;
  read: Dir;
  write: Dir;
  usr_cpu: number;
  sys_cpu: number;
  job_runtime: number;
};

/** The JSON document inside a fixture: from the first line starting with "{" to the line "}". */
function documentOf(text: string): { 'fio version': string; timestamp: number; jobs: Job[] } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('{'));
  const end = lines.indexOf('}', start);
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

function checkDirection(result: TestResult, d: Dir, withHistogram: boolean): void {
  assert.equal(result.bytesPerSec, d.bw_bytes);
  assert.equal(result.iops, d.iops);
  const c = d.clat_ns;
  assert.deepEqual(result.latencyNs, {
    mean: Math.round(c.mean),
    max: c.max,
    p50: c.percentile?.['50.000000'],
    p90: c.percentile?.['90.000000'],
    p99: c.percentile?.['99.000000'],
    p999: c.percentile?.['99.900000'],
  });
  if (withHistogram) {
    const bins = Object.entries(c.bins ?? {})
      .map(([k, v]) => [Number(k), v])
      .sort((a, b) => (a[0] as number) - (b[0] as number));
    assert.ok(bins.length > 10);
    assert.deepEqual(result.histogram, bins);
  } else {
    assert.deepEqual(result.histogram, []);
  }
}

// The names the jobs of fixtures/fio-jobs.fio must get.
const JOB_FILE_NAMES: Record<string, string> = {
  'seq1m-q8-read': 'seq1m-q8t1-read', // rw=read bs=1M iodepth=8: exactly DiskDelta's test
  'rnd4k-q32-read': 'rnd4k-q32t1-read',
  'seq1m-q1-write': 'seq1m-q1t1-write',
  'mix70-4k-q8': 'mix70-rnd4k-q8t1', // randrw rwmixread=70 bs=4k iodepth=8
};

describe('fio JSON import', () => {
  for (const [name, plus] of [
    ['fio-3.33-json.json', false],
    ['fio-3.33-jsonplus.json', true],
  ] as const) {
    it(`${name}: four jobs, every mapped number`, () => {
      const text = fixture(name);
      assert.equal(detectFormat(text), 'fio');
      const doc = documentOf(text);
      const [run, ...more] = parseImport(text, name, { now: NOW });
      assert.equal(more.length, 0);
      assert.ok(run);
      assert.equal(run.sourceFormat, 'fio');
      assert.equal(run.engine.version, doc['fio version']);
      assert.equal(run.engine.ioEngine, 'libaio');
      assert.equal(run.createdAt, new Date(doc.timestamp * 1000).toISOString());
      assert.equal(run.settings.sizeBytes, 64 * 1024 * 1024);
      assert.equal(run.settings.buffered, false);
      assert.equal(run.target.path, '/tmp/fmt-fio/testfile');
      assert.equal(run.results.length, doc.jobs.length);
      for (const job of doc.jobs) {
        const test = JOB_FILE_NAMES[job.jobname] as string;
        const result: TestResult | undefined = run.results.find((r) => r.test === test);
        assert.ok(result, `${job.jobname} → ${test}`);
        assert.deepEqual(result.cpu, {
          userNs: Math.round((job.usr_cpu / 100) * job.job_runtime * 1e6),
          systemNs: Math.round((job.sys_cpu / 100) * job.job_runtime * 1e6),
        });
        if (test.startsWith('mix')) {
          // Both sides summed; the I/O-weighted mean and the max of the two; no merged percentiles.
          const { read: r, write: w } = job;
          assert.deepEqual(result.params, { rw: 'randrw', blockSize: 4096, queueDepth: 8, threads: 1, readPercent: 70 });
          assert.equal(result.bytesPerSec, r.bw_bytes + w.bw_bytes);
          assert.equal(result.iops, r.iops + w.iops);
          assert.equal(
            result.latencyNs?.mean,
            Math.round((Math.round(r.clat_ns.mean) * r.total_ios + Math.round(w.clat_ns.mean) * w.total_ios) / (r.total_ios + w.total_ios)),
          );
          assert.equal(result.latencyNs?.max, Math.max(r.clat_ns.max, w.clat_ns.max));
          assert.equal(result.latencyNs?.p99, null);
          const extra = (n: string): number | null | undefined => run.extras.find((e) => e.name === `${test} ${n}`)?.value;
          assert.equal(extra('read bandwidth'), r.bw_bytes);
          assert.equal(extra('write bandwidth'), w.bw_bytes);
          assert.equal(extra('read IOPS'), r.iops);
          assert.equal(extra('write IOPS'), w.iops);
        } else {
          checkDirection(result, test.endsWith('read') ? job.read : job.write, plus);
        }
      }
      const q8 = run.results.find((r) => r.test === 'seq1m-q8t1-read');
      assert.deepEqual(q8?.params, { rw: 'read', blockSize: 1024 * 1024, queueDepth: 8, threads: 1 });
    });
  }

  it('notes before the document; psync caps the depth; numjobs=2 with group_reporting', () => {
    const text = fixture('fio-3.33-notes-before.json');
    assert.ok(text.startsWith('note: both iodepth'), 'the fixture really has text first');
    assert.equal(detectFormat(text), 'fio');
    const [run] = parseImport(text, 'notes.json', { now: NOW });
    const job = documentOf(text).jobs[0] as Job;
    const [result] = run?.results ?? [];
    assert.equal(result?.test, 'rnd4k-q1t2-write'); // iodepth=4 in the options, but psync runs at 1
    assert.deepEqual(result?.params, { rw: 'randwrite', blockSize: 4096, queueDepth: 1, threads: 2 });
    checkDirection(result as TestResult, job.write, false);
    assert.match(run?.sourceMeta.textBefore ?? '', /queue depth will be capped at 1/);
  });

  it('the normal report after the document is kept as metadata, not parsed', () => {
    const text = fixture('fio-3.33-normal-and-json.txt');
    const [run] = parseImport(text, 'normal.txt', { now: NOW });
    const job = documentOf(text).jobs[0] as Job;
    assert.equal(run?.results.length, 1);
    checkDirection(run?.results[0] as TestResult, job.read, false);
    assert.equal(run?.results[0]?.test, 'seq1m-q1t1-read');
    assert.match(run?.sourceMeta.textBefore ?? '', /Starting 1 process/);
    assert.match(run?.sourceMeta.textAfter ?? '', /Run status group 0/);
  });

  it('a wrong type inside a job names the line of that value', () => {
    const text = fixture('fio-3.33-json.json');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"iops" : 48934.532734'));
    assert.ok(at > 0);
    lines[at] = lines[at]!.replace('48934.532734', '"fast"');
    assert.throws(
      () => parseImport(lines.join('\n'), 'bad.json', { now: NOW }),
      (e: unknown) => e instanceof ImportError && e.file === 'bad.json' && e.line === at + 1 && /iops/.test(e.message),
    );
  });

  it('a truncated document is an error with a line, not a partial run', () => {
    const text = fixture('fio-3.33-jsonplus.json');
    const cut = text.slice(0, Math.floor(text.length / 2));
    assert.throws(
      () => parseImport(cut, 'cut.json', { now: NOW }),
      (e: unknown) => e instanceof ImportError && e.line !== null && /truncated/.test(e.message),
    );
  });

  it('fio 2.x documents: no bw_bytes, io_bytes in KiB, clat in microseconds', () => {
    const doc = documentOf(fixture('fio-3.33-json.json'));
    const job = structuredClone(doc.jobs[0]) as Job & { read: Record<string, unknown> };
    const { bw_bytes: _drop, io_kbytes: kib, clat_ns, ...rest } = job.read as Dir & Record<string, unknown>;
    // The same job as fio 2.x would print it (stat.c before 2.21): io_bytes >> 10, "bw" in
    // whole KiB/s, "clat" in µs. The rate comes from io_bytes / runtime, not the rounded bw.
    const runtime = rest.runtime as number;
    job.read = {
      ...rest,
      io_bytes: kib,
      bw: 765964,
      clat: { mean: clat_ns.mean / 1000, max: clat_ns.max / 1000, N: 1505, percentile: { '50.000000': 10289 } },
    } as never;
    const [run] = parseImport(JSON.stringify({ 'fio version': 'fio-2.2.10', jobs: [job] }, null, 2), 'old.json', { now: NOW });
    const result = run?.results[0];
    assert.equal(result?.bytesPerSec, ((kib as number) * 1024 * 1000) / runtime);
    assert.equal(result?.latencyNs?.p50, 10_289_000);
    assert.equal(result?.latencyNs?.max, Math.round(clat_ns.max));
    assert.equal(run?.createdAt, NOW.toISOString(), 'no timestamp: the import time');
    assert.match(run?.sourceMeta.date ?? '', /not in the file/);
  });

  it('patterns with no DiskDelta test shape keep a descriptive name and no params', () => {
    const doc = documentOf(fixture('fio-3.33-json.json'));
    const seqMixed = { ...structuredClone(doc.jobs[3]!), jobname: 'seqmix' };
    seqMixed['job options'] = { rw: 'rw', rwmixread: '70', bs: '1M', iodepth: '4' };
    const trim = { ...structuredClone(doc.jobs[0]!), jobname: 'trimmer' };
    trim['job options'] = { rw: 'trim', bs: '1M', iodepth: '8' };
    const [run] = parseImport(JSON.stringify({ ...doc, jobs: [seqMixed, trim] }), 'odd.json', { now: NOW });
    assert.deepEqual(
      run?.results.map((r) => [r.test, r.params]),
      [
        ['fio-rw-1m-q4t1', null],
        ['fio-trim-1m-q8t1', null],
      ],
    );
    const mixed = run?.results[0];
    assert.equal(mixed?.bytesPerSec, doc.jobs[3]!.read.bw_bytes + doc.jobs[3]!.write.bw_bytes);
  });

  it('clones of a job (numjobs without group_reporting) are summed', () => {
    const doc = documentOf(fixture('fio-3.33-notes-before.json'));
    const job = doc.jobs[0] as Job;
    // A clone is its own measurement: its figures are never all the same as its sibling's (an
    // entry the same to the last digit is the file repeating one, counted once: impossible-figures.test.ts).
    const clone = structuredClone(job) as Job & { write: { clat_ns: { mean: number } } };
    clone.write.clat_ns.mean += 1;
    const text = JSON.stringify({ ...doc, jobs: [job, clone] }, null, 1);
    const [run] = parseImport(text, 'clones.json', { now: NOW });
    assert.equal(run?.results.length, 1);
    assert.equal(run?.results[0]?.bytesPerSec, job.write.bw_bytes * 2);
    assert.equal(run?.results[0]?.iops, job.write.iops * 2);
  });
});
