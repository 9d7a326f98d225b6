// The fleet's job file (issue #26 item 1): written from a preset, run by real fio here, and
// imported back as the very tests of the preset with the catalog's parameters.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rateTestParams } from '../../../shared/model/catalog.ts';
import { parseImport } from '../../formats/index.ts';
import { PRESETS } from '../../../shared/catalog/presets.ts';
import { FLEET_FILE_PATTERN, fleetJobFile, fleetTestFileName, hostFolderProblem } from './fio-job-file.ts';

describe('fleet job file', () => {
  it('writes every rate test of the preset as a job named by its test id, and names what it leaves out', () => {
    const file = fleetJobFile(PRESETS.full, { folder: '/var/tmp' });
    assert.deepEqual(
      file.tests,
      PRESETS.full.tests.filter((t) => t !== 'seeks'),
    );
    assert.deepEqual(
      file.skipped.map((s) => s.test),
      ['seeks'],
    );
    for (const test of file.tests) assert.ok(file.text.includes(`\n[${test}]\nstonewall\n`), test);
    assert.match(file.text, /\ndirect=1\n/);
    assert.match(file.text, /\nsize=1073741824\n/);
    // Adaptive presets: one fio job for DiskDelta's longest time per test, said as a difference.
    assert.match(file.text, /\nruntime=1200ms\n/);
    assert.match(file.differences.join('\n'), /one mean per job.*no run-to-run spread/);
  });

  it('refuses a folder that fio would read as another folder or as syntax, before writing anything', () => {
    assert.throws(() => fleetJobFile(PRESETS.quick, { folder: 'tmp' }), /absolute path/);
    assert.throws(() => fleetJobFile(PRESETS.quick, { folder: '/tmp\n[evil]' }), /control character/);
    for (const c of ['\r', '\t', '\u0000', '\u007f']) assert.match(hostFolderProblem(`/tmp/a${c}b`) ?? '', /control character/);
    for (const c of [':', ';', '#', '$', '\\']) assert.match(hostFolderProblem(`/tmp/a${c}b`) ?? '', /holds "/, c);
    assert.match(hostFolderProblem('/tmp/a ') ?? '', /blank/);
    for (const ok of ['/var/tmp', '/var/tmp/', '/srv/disk two/x-y_z.1', '/', "/home/o'brien"])
      assert.equal(hostFolderProblem(ok), null, ok);
  });

  it('names the test file unpredictably, anew for each host, and says where it is', () => {
    const names = new Set(Array.from({ length: 1000 }, fleetTestFileName));
    assert.equal(names.size, 1000);
    for (const n of names) assert.match(n, FLEET_FILE_PATTERN);
    const a = fleetJobFile(PRESETS.quick, { folder: '/var/tmp/' });
    const b = fleetJobFile(PRESETS.quick, { folder: '/var/tmp' });
    assert.notEqual(a.path, b.path);
    assert.match(a.path, /^\/var\/tmp\/\.diskdelta-fleet-[0-9a-f]{32}\.tmp$/);
    assert.ok(a.text.includes(`\nfilename=${a.path.slice('/var/tmp/'.length)}\n`));
    assert.doesNotMatch(a.text, /diskdelta-fleet\.fio\.tmp/);
    assert.throws(
      () => fleetJobFile(PRESETS.quick, { folder: '/var/tmp', fileName: 'diskdelta-fleet.fio.tmp' }),
      /not a fleet test file name/,
    );
  });

  it('run by real fio, it imports back as the preset’s tests with the catalog’s parameters', (t) => {
    if (spawnSync('fio', ['--version']).status !== 0) return t.skip('fio missing');
    const dir = mkdtempSync(join(tmpdir(), 'dd-fleet-job-'));
    try {
      const file = fleetJobFile(PRESETS.quick, { folder: dir, sizeBytes: 8 * 1024 * 1024, durationSec: 0.2 });
      const job = join(dir, 'quick.fio');
      writeFileSync(job, file.text.replace(/ramp_time=\S+/, 'ramp_time=0'));
      const r = spawnSync('fio', ['--output-format=json', job], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const [run] = parseImport(r.stdout, 'quick.json');
      assert.deepEqual(
        run?.results.map((x) => x.test),
        PRESETS.quick.tests,
      );
      for (const result of run?.results ?? []) assert.deepEqual(result.params, rateTestParams(result.test), result.test);
      assert.equal(run?.settings.buffered, false);
      assert.deepEqual(readdirSync(dir), ['quick.fio'], 'the last job removes the test file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
