import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseDiskDeltaJson } from '../../node/formats/diskdelta-json.ts';
import { resultWithoutRuns } from '../../node/formats/common.ts';
import { syntheticRun } from '../../node/store/fixtures/synthetic-run.ts';
import type { RunRecord, TestResult } from './results.ts';
import { runEncrypted, runKind, runKinds } from './run-kind.ts';
import { fitsRole, roleProblem } from './assessment-roles.ts';

const reference = (file: string) =>
  parseDiskDeltaJson(readFileSync(new URL(`../../../assets/reference/${file}`, import.meta.url), 'utf8'), file);

const figure = (metric: string, subject: string, value: number) => ({ metric, subject, value, unit: 's', provenance: 'measured' }) as const;

function withResults(results: TestResult[], sourceMeta: Record<string, string> = {}): RunRecord {
  return { ...syntheticRun(1), results, sourceMeta };
}

const rate = () => resultWithoutRuns({ test: 'seq1m-q8t1-read', params: null, bytesPerSec: 1e8, iops: null });
const phases = (test: string) =>
  resultWithoutRuns({ test, params: null, bytesPerSec: null, iops: null, figures: [figure('phaseSeconds', 'delete', 3)] });
const figuresOnly = (test: string) =>
  resultWithoutRuns({ test, params: null, bytesPerSec: null, iops: null, figures: [figure('storedBytes', '', 5)] });

describe('run kinds', () => {
  it('reads the shipped references as what they are: disks, and two discard-cost experiments', () => {
    const bonnie = reference('2011-thinkpad-x201i-bonnie.json');
    assert.deepEqual(bonnie.map(runKind), ['disk', 'disk', 'disk']);
    assert.deepEqual(bonnie.map(runEncrypted), [null, null, true], 'only the third was measured under dm-crypt');
    const discard = reference('2013-intel-525-discard.json');
    assert.deepEqual(discard.map(runKind), ['discard-cost', 'discard-cost']);
  });

  it('tells each measuring kind by its tests, not by its label', () => {
    assert.equal(runKind(withResults([figuresOnly('working-set')])), 'working-set');
    assert.equal(runKind(withResults([figuresOnly('access-curve')])), 'access-recording');
    assert.equal(runKind(withResults([figuresOnly('sustained-write')])), 'sustained-write');
    assert.equal(runKind(withResults([phases('tree-3.9.1')])), 'workload');
    assert.equal(runKind(withResults([phases('tree-3.9.1')], { 'mount option': 'discard' })), 'discard-cost');
    assert.equal(runKind(withResults([rate()], { 'fio.host': '127.0.0.2' })), 'fleet-host');
    assert.equal(runKind(withResults([])), 'unknown');
  });

  it("counts an import's own rate test (outside the catalog) as a disk measurement", () => {
    const own = resultWithoutRuns({ test: 'my-own-fio-job', params: null, bytesPerSec: 5e7, iops: null });
    assert.equal(runKind(withResults([own])), 'disk');
    const nothing = resultWithoutRuns({ test: 'my-own-fio-job', params: null, bytesPerSec: null, iops: null });
    assert.equal(runKind(withResults([nothing])), 'unknown');
  });

  it('keeps every kind of a run that holds several, the disk first', () => {
    assert.deepEqual(runKinds(withResults([phases('app-start'), rate()])), ['disk', 'workload']);
  });

  it('says encrypted only from a dm-crypt layer of the stack, and "unknown" without a stack', () => {
    const run = syntheticRun(1);
    const layer = { name: 'x', details: {} };
    assert.equal(runEncrypted({ target: { ...run.target, stack: [{ ...layer, kind: 'disk' }] } }), false);
    assert.equal(runEncrypted({ target: { ...run.target, stack: [{ ...layer, kind: 'dm-crypt' }] } }), true);
    assert.equal(runEncrypted({ target: { path: '/x', kind: 'folder' } }), null);
  });
});

describe('assessment roles', () => {
  const [hdd, ssd, ssdCrypt] = reference('2011-thinkpad-x201i-bonnie.json');
  const [discardOff] = reference('2013-intel-525-discard.json');
  const scan = withResults([figuresOnly('working-set')]);
  const measuredCrypt = { ...ssdCrypt!, source: 'measured' as const };

  it('takes disks for before and after, whatever their source, and nothing else', () => {
    assert.equal(roleProblem('before', hdd!), null);
    assert.equal(roleProblem('after', ssd!), null);
    assert.match(roleProblem('after', scan)!, /it is a working-set scan; the new disk \(after\) takes a disk/);
    assert.match(roleProblem('before', discardOff!)!, /it is a discard-cost experiment/);
  });

  it("takes for encryption only this machine's own dm-crypt measurement", () => {
    assert.match(
      roleProblem('encrypted', ssdCrypt!)!,
      /a reference's encrypted run is another machine's story; it is shown beside, never as this machine's cost/,
    );
    assert.match(roleProblem('encrypted', { ...ssd!, source: 'measured' })!, /nothing in it says it was measured through dm-crypt/);
    assert.equal(roleProblem('encrypted', measuredCrypt), null);
  });

  it('takes discard-cost runs for TRIM and a scan or a recording for the size', () => {
    assert.equal(fitsRole('discardOff', discardOff!), true);
    assert.equal(fitsRole('discardOn', ssd!), false);
    assert.equal(fitsRole('workingSet', scan), true);
    assert.equal(fitsRole('workingSet', withResults([figuresOnly('access-curve')])), true);
    assert.equal(fitsRole('workingSet', hdd!), false);
  });
});
