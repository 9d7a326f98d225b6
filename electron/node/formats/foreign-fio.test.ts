// fio JSON files other people published (fixtures/foreign/README.md names each source),
// read as fio's own stat.c wrote them in each version: every test checks figures against the
// file's own text, parsed here with plain JSON.parse, and rate against IOPS × block size.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FAILED_TEST, isFailedResult, type RunRecord, type TestResult } from '../../shared/model/results.ts';
import { parseFioSeconds, parseFioSize } from './fio-json.ts';
import { parseImport } from './index.ts';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const read = (name: string) => readFileSync(new URL(`./fixtures/foreign/${name}`, import.meta.url), 'utf8');

type Dir = {
  io_bytes: number;
  io_kbytes?: number;
  bw_bytes?: number;
  bw: number;
  iops: number;
  runtime: number;
  clat_ns?: { mean: number };
  clat?: { mean: number };
};
type Job = {
  jobname: string;
  error: number;
  'job options': Record<string, string>;
  read: Dir;
  write: Dir;
  usr_cpu: number;
  sys_cpu: number;
  job_runtime?: number;
};
type Doc = { 'fio version': string; timestamp: number; 'global options'?: Record<string, string>; jobs: Job[] };

/** The document as fio wrote it: the text from the first line starting with "{". */
function doc(text: string): Doc {
  return JSON.parse(text.slice(text.search(/^\{/m))) as Doc;
}

function importOne(name: string): { run: RunRecord; d: Doc; text: string } {
  const text = read(name);
  const runs = parseImport(text, name, { now: NOW });
  assert.equal(runs.length, 1, `${name}: one run`);
  return { run: runs[0] as RunRecord, d: doc(text), text };
}

function only(run: RunRecord): TestResult {
  assert.equal(run.results.length, 1);
  return run.results[0] as TestResult;
}

/** Rate and IOPS × block size must agree to within fio's own rounding (checked by the importer). */
function assertConsistent(result: TestResult, blockSize: number): void {
  assert.ok(result.bytesPerSec !== null && result.iops !== null);
  const fromIops = result.iops * blockSize;
  assert.ok(Math.abs(result.bytesPerSec - fromIops) / fromIops < 1e-4, `${result.bytesPerSec} vs ${fromIops}`);
  assert.ok(!result.warnings.some((w) => w.code === 'rate-iops-mismatch'), JSON.stringify(result.warnings));
}

describe('fio JSON published by others', () => {
  it('fio 2.18 (md127, randread 4k): io_bytes is KiB in this version, so the rate is io_bytes × 1024 / runtime', () => {
    const { run, d } = importOne('fio-2.18-md127-randread.json');
    const job = d.jobs[0] as Job;
    const r = only(run);
    assert.equal(job.read.io_kbytes, undefined, 'fio before 2.21 has no io_kbytes');
    assert.equal(r.bytesPerSec, (job.read.io_bytes * 1024 * 1000) / job.read.runtime);
    assert.equal(r.iops, job.read.iops);
    assert.equal(r.latencyNs?.mean, Math.round((job.read.clat?.mean as number) * 1000), 'clat in µs → ns');
    assert.equal(run.createdAt, new Date(d.timestamp * 1000).toISOString());
    assert.equal(run.target.path, '/dev/md127');
    assertConsistent(r, 4096);
  });

  it('fio 3.1 on a floppy: bw is 10 KiB/s rounded down; io_bytes / runtime gives the 10.6 the disk did', () => {
    const { run, d } = importOne('fio-3.1-floppy-randread.json');
    const job = d.jobs[0] as Job;
    const r = only(run);
    assert.equal(job.read.bw, 10);
    assert.equal(r.bytesPerSec, (job.read.io_bytes * 1000) / job.read.runtime);
    assert.ok((r.bytesPerSec as number) > job.read.bw * 1024 * 1.05, 'the truncated bw would be more than 5 % low');
    assert.equal(r.iops, job.read.iops);
    assert.equal(run.target.path, '/dev/sde');
    assert.equal(run.target.kind, 'block-device');
    assertConsistent(r, 4096);
  });

  it('fio 3.1 (MX200): CPU time from the I/O runtime when job_runtime is absent, and the notes say so', () => {
    const { run, d } = importOne('fio-3.1-mx200-randread.json');
    const job = d.jobs[0] as Job;
    const r = only(run);
    assert.equal(job.job_runtime, undefined);
    assert.deepEqual(r.cpu, {
      userNs: Math.round((job.usr_cpu / 100) * job.read.runtime * 1e6),
      systemNs: Math.round((job.sys_cpu / 100) * job.read.runtime * 1e6),
    });
    assert.match(run.notes, /job_runtime/);
    assert.equal(r.bytesPerSec, (job.read.io_bytes * 1000) / job.read.runtime);
    assert.equal(r.latencyNs?.mean, Math.round(job.read.clat_ns?.mean as number));
    assertConsistent(r, 4096);
  });

  it('fio 3.12 randrw 32k from global options: both sides summed, size "4GB" read as fio does', () => {
    const { run, d } = importOne('fio-3.12-randrw-32k.json');
    const job = d.jobs[0] as Job;
    const r = only(run);
    assert.equal(r.test, 'mix50-rnd32k-q16t1');
    assert.equal(r.bytesPerSec, (job.read.bw_bytes as number) + (job.write.bw_bytes as number));
    assert.equal(r.iops, job.read.iops + job.write.iops);
    assert.equal(run.settings.sizeBytes, 4 * 1024 ** 3, '"4GB" with kb_base=1024');
    assert.equal(r.cpu?.userNs, Math.round((job.usr_cpu / 100) * (job.job_runtime as number) * 1e6));
    assert.equal(run.notes, '', 'job_runtime present: nothing estimated');
    assertConsistent(r, 32 * 1024);
  });

  it('fio 3.16: directory + filename is the target, and "50000Mi" is a size', () => {
    const { run, d } = importOne('fio-3.16-50000Mi-directory.json');
    const opts = (d.jobs[0] as Job)['job options'];
    assert.equal(opts.size, '50000Mi');
    assert.equal(run.target.path, `${opts.directory}/${opts.filename}`);
    assert.equal(run.target.path, '/server/fiotest/test.bin');
    assert.equal(run.settings.sizeBytes, 50000 * 1024 * 1024);
    assert.equal(run.settings.durationSec, 60);
    const r = only(run);
    assert.equal(r.test, 'rnd4k-q1t16-read', 'numjobs=16 with group_reporting');
    assert.equal(r.bytesPerSec, (d.jobs[0] as Job).read.bw_bytes);
    assertConsistent(r, 4096);
  });

  it("fio 3.33 with error 22: a failed test with fio's own reason, never 0 B/s", () => {
    const { run, d, text } = importOne('fio-3.33-error-22.json');
    assert.equal((d.jobs[0] as Job).error, 22);
    assert.match(text, /error=Invalid argument/);
    const r = only(run);
    assert.equal(r.bytesPerSec, null);
    assert.equal(r.iops, null);
    assert.equal(r.latencyNs, null);
    assert.ok(isFailedResult(r));
    const failed = r.warnings.find((w) => w.code === FAILED_TEST);
    assert.match(failed?.message ?? '', /error 22 \(Invalid argument\)/);
    assert.equal(run.target.path, '/Users/nan03/tmp/fio', 'the directory when fio names the files');
    assert.equal(run.target.kind, 'folder');
  });

  it('fio 3.34 stopped by Ctrl-C ("terminating on signal 2"): imported with an interrupted warning', () => {
    const { run, d, text } = importOne('fio-3.34-directory.json');
    assert.match(text.slice(0, text.search(/^\{/m)), /terminating on signal 2/);
    const warning = run.warnings.find((w) => w.code === 'interrupted');
    assert.match(warning?.message ?? '', /signal 2/);
    const job = d.jobs[0] as Job;
    assert.equal(run.target.path, `${job['job options'].directory}/${job['job options'].filename ?? ''}`.replace(/\/$/, ''));
    assert.equal(only(run).bytesPerSec, job.read.bw_bytes);
    assertConsistent(only(run), 4096);
  });

  it('unified_rw_reporting: the one "mixed" object fio writes is the result, not "no results"', () => {
    // The 3.12 randrw file as fio writes it with unified_rw_reporting=1: both sides in "mixed".
    const d = doc(read('fio-3.12-randrw-32k.json'));
    const job = d.jobs[0] as Job & { mixed?: Dir };
    const { read: r, write: w } = job;
    job.mixed = {
      ...r,
      io_bytes: r.io_bytes + w.io_bytes,
      io_kbytes: (r.io_kbytes ?? 0) + (w.io_kbytes ?? 0),
      bw_bytes: (r.bw_bytes ?? 0) + (w.bw_bytes ?? 0),
      iops: r.iops + w.iops,
    };
    delete (job as Partial<Job>).read;
    delete (job as Partial<Job>).write;
    (d['global options'] as Record<string, string>).unified_rw_reporting = '1';
    const [run] = parseImport(JSON.stringify(d), 'unified.json', { now: NOW });
    const result = run?.results[0];
    assert.equal(result?.test, 'mix50-rnd32k-q16t1');
    assert.equal(result?.bytesPerSec, (r.bw_bytes as number) + (w.bw_bytes as number));
    assert.equal(result?.iops, r.iops + w.iops);
  });

  it('two devices in one file: one run per device, test names without stray spaces', () => {
    // The MX200 file with its job run on two devices, named the way job files name sections.
    const d = doc(read('fio-3.1-mx200-randread.json'));
    const job = d.jobs[0] as Job;
    const on = (device: string): Job => ({
      ...structuredClone(job),
      jobname: `job ${device} `,
      'job options': { ...job['job options'], filename: device },
    });
    const runs = parseImport(JSON.stringify({ ...d, jobs: [on('/dev/sda'), on('/dev/sdb')] }, null, 2), 'two.json', { now: NOW });
    assert.deepEqual(
      runs.map((r) => r.target.path),
      ['/dev/sda', '/dev/sdb'],
    );
    for (const run of runs) {
      assert.deepEqual(
        run.results.map((r) => r.test),
        ['rnd4k-q1t1-read'],
      );
      assert.match(run.label, /\(\/dev\/sd[ab]\)$/);
    }
    // Two jobs on the same device with the same shape keep both, with a clean qualifier.
    const same = parseImport(
      JSON.stringify({ ...d, jobs: [on('/dev/sda'), { ...on('/dev/sda'), jobname: '  second   job ' }] }),
      'same.json',
      { now: NOW },
    );
    assert.deepEqual(
      same[0]?.results.map((r) => r.test),
      ['rnd4k-q1t1-read', 'rnd4k-q1t1-read:second job'],
    );
  });

  it('runtime and sizes as fio reads them (parse.c): "5m" is five minutes, KiB is 1000 bytes under kb_base=1024', () => {
    assert.equal(parseFioSeconds('5m'), 300);
    assert.equal(parseFioSeconds('60'), 60);
    assert.equal(parseFioSeconds('500ms'), 0.5);
    assert.equal(parseFioSeconds('2h'), 7200);
    assert.equal(parseFioSeconds('5min'), null);
    assert.equal(parseFioSize('50000Mi'), 50000 * 1024 ** 2);
    assert.equal(parseFioSize('4k'), 4096);
    assert.equal(parseFioSize('4KiB'), 4000, 'fio inverts IEC prefixes by default');
    assert.equal(parseFioSize('4KiB', 1000), 4096);
    assert.equal(parseFioSize('1g', 1000), 1e9);
    assert.equal(parseFioSize('100%'), null);
    // In a file: runtime "5m" becomes 300 s of duration.
    const d = doc(read('fio-3.1-mx200-randread.json'));
    const job = d.jobs[0] as Job;
    job['job options'] = { ...job['job options'], runtime: '5m', size: '50000Mi' };
    const [run] = parseImport(JSON.stringify(d), 'five-minutes.json', { now: NOW });
    assert.equal(run?.settings.durationSec, 300);
    assert.equal(run?.settings.sizeBytes, 50000 * 1024 ** 2);
  });

  it('a rate that IOPS × block size contradicts is flagged (bs=4KiB is 4000 bytes to fio)', () => {
    const d = doc(read('fio-3.1-mx200-randread.json'));
    (d.jobs[0] as Job)['job options'].bs = '4KiB';
    const [run] = parseImport(JSON.stringify(d), 'kib.json', { now: NOW });
    const r = run?.results[0];
    assert.equal(r?.test, 'rnd4000-q1t1-read');
    assert.ok(
      r?.warnings.some((w) => w.code === 'rate-iops-mismatch'),
      'the bytes moved were 4096 per I/O, not 4000',
    );
  });
});
