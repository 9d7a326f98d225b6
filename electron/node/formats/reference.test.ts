// The reference runs in assets/reference/: the published figures, exactly, marked as reference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '../../shared/model/results.ts';
import { ImportError, loadReferenceRuns, REFERENCE_DIR } from './index.ts';

const byLabel = (runs: RunRecord[], re: RegExp) => {
  const found = runs.filter((r) => re.test(r.label));
  assert.equal(found.length, 1, `exactly one run matching ${re}`);
  return found[0] as RunRecord;
};
const value = (run: RunRecord, test: string) => {
  const r = run.results.find((x) => x.test === test);
  return r ? (r.bytesPerSec ?? r.iops) : undefined;
};

describe('reference runs', () => {
  it('the 2011 bonnie++ figures, KiB/s ×1024, and the ratios of the seed story', async () => {
    const runs = await loadReferenceRuns();
    assert.ok(runs.every((r) => r.source === 'reference' && r.sourceMeta.source !== undefined));
    const hdd = byLabel(runs, /hard disk/);
    const ssd = byLabel(runs, /^Intel 320 SSD, /);
    const crypt = byLabel(runs, /dm-crypt/);
    assert.equal(value(hdd, 'seq1m-q1t1-read'), 40_300 * 1024);
    assert.equal(value(hdd, 'seq1m-q1t1-read'), 41_267_200);
    assert.equal(value(ssd, 'seq1m-q1t1-read'), 132_673 * 1024);
    assert.equal(value(crypt, 'seq1m-q1t1-read'), 69_805 * 1024);
    assert.equal(value(hdd, 'seeks'), 151.4);
    assert.equal(value(ssd, 'seeks'), 10_524);
    assert.equal(value(crypt, 'seeks'), undefined, 'not reported, so not invented');
    const seeks = ssd.results.find((r) => r.test === 'seeks');
    assert.equal(seeks?.underResolved, true, '10,524 "and possibly more"');
    assert.ok(seeks?.warnings.some((w) => w.code === 'under-resolved' && /possibly more/.test(w.message)));
    const ratio = (a: RunRecord, b: RunRecord, t: string) => (value(b, t) as number) / (value(a, t) as number);
    assert.equal(ratio(hdd, ssd, 'seq1m-q1t1-read').toFixed(2), '3.29');
    assert.equal(ratio(ssd, crypt, 'seq1m-q1t1-read').toFixed(2), '0.53');
    assert.equal(ratio(hdd, ssd, 'seeks').toFixed(1), '69.5');
    assert.equal(hdd.target.device?.class, 'HDD');
    assert.equal(ssd.target.device?.model, 'Intel 320 Series 120 GB');
    assert.equal(ssd.target.device?.linkCeilingBytesPerSec, 300e6);
    assert.ok(crypt.target.stack?.some((l) => l.kind === 'dm-crypt' && l.encrypted === true));
  });

  it('the 2013 discard timings as workload figures in seconds, lined up with the tree-3.9.1 and bigfile workloads', async () => {
    const runs = await loadReferenceRuns();
    const figures = (re: RegExp) =>
      Object.fromEntries(
        byLabel(runs, re).results.flatMap((r) => (r.figures ?? []).map((f) => [`${r.test} ${f.subject}`, [f.value, f.unit, f.provenance]])),
      );
    assert.deepEqual(figures(/without discard/), {
      'tree-3.9.1 write': [7.368, 's', 'reference'],
      'tree-3.9.1 delete': [0.71, 's', 'reference'],
      'bigfile delete': [0.43, 's', 'reference'],
    });
    assert.deepEqual(figures(/with discard/), {
      'tree-3.9.1 write': [7.373, 's', 'reference'],
      'tree-3.9.1 delete': [2.697, 's', 'reference'],
      'bigfile delete': [1.65, 's', 'reference'],
    });
    assert.match(byLabel(runs, /with discard/).sourceMeta.fstrim ?? '', /about a minute/);
  });

  it('labels and dates are unique (the library recognises runs it already has by them)', async () => {
    const runs = await loadReferenceRuns();
    const keys = new Set(runs.map((r) => `${r.label}|${r.createdAt}`));
    assert.equal(keys.size, runs.length);
    assert.ok(existsSync(join(REFERENCE_DIR, 'README.md')));
  });

  it('a file in the folder that is not marked reference is refused', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'diskdelta-ref-'));
    try {
      const name = '2011-thinkpad-x201i-bonnie.json';
      copyFileSync(join(REFERENCE_DIR, name), join(tmp, name));
      assert.equal((await loadReferenceRuns(tmp)).length, 3);
      writeFileSync(
        join(tmp, 'z.json'),
        readFileSync(join(REFERENCE_DIR, name), 'utf8').replace(/"source": "reference"/, '"source": "measured"'),
      );
      await assert.rejects(loadReferenceRuns(tmp), (e: unknown) => e instanceof ImportError && e.file === 'z.json');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
