// `diskdelta forecast` through main(): the example spec sheet, spec sheets refused with the field
// named (exit 2, nothing else done), two spec sheets and a run side by side with the disk in use
// today (bus cap said, workloads forecast with their ranges, all marked estimated), --json.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../run-cli-in-process.ts';
import { openLibrary } from '../../node/store/library.ts';
import { currentDiskRun, workloadRun } from '../../shared/analysis/forecast-fixtures.ts';
import { EXAMPLE_CANDIDATE } from '../../shared/model/candidate.ts';
import type { Forecast } from '../../shared/analysis/candidate-forecast.ts';
import { DatabaseSync } from 'node:sqlite';
import { ForecastError } from '../../node/api/forecast-service.ts';
import { UsageError } from '../args.ts';
import { ASSESSMENT_RUNS, asCliError } from './forecast.ts';

const dir = mkdtempSync(join(tmpdir(), 'dd-forecast-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const spec = (name: string, edit: (s: Record<string, any>) => void = () => {}): string => {
  const s = structuredClone(EXAMPLE_CANDIDATE) as Record<string, any>;
  edit(s);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(s));
  return path;
};

describe('diskdelta forecast', () => {
  const db = join(dir, 'library.sqlite');
  const ids: Record<string, number> = {};
  before(() => {
    const library = openLibrary({ dbPath: db });
    ids.current = library.saveRun(currentDiskRun());
    ids.workloads = library.saveRun(workloadRun());
    ids.imported = library.saveRun({
      ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
    });
    library.close();
  });

  it('--example prints a spec sheet that the forecast takes back', async () => {
    const out = await runCli(['forecast', '--example']);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), EXAMPLE_CANDIDATE);
    const path = join(dir, 'example.json');
    writeFileSync(path, out.stdout);
    const back = await runCli(['forecast', '--candidate', path, '--db', db]);
    assert.equal(back.code, 0, back.stderr);
  });

  it('a refused spec sheet: exit 2, every problem naming its field', async () => {
    const cases: Array<[string, (s: Record<string, any>) => void, RegExp]> = [
      ['missing.json', (s) => delete s.sequentialMBps.write, /sequentialMBps\.write: missing/],
      ['negative.json', (s) => (s.enduranceTBW = -5), /enduranceTBW: must be above 0/],
      ['absurd.json', (s) => (s.sequentialMBps.read = 250_000), /sequentialMBps\.read: is absurd/],
      ['slow-seq.json', (s) => (s.sequentialMBps.read = 100), /sequentialMBps\.read: is slower than 4K random read/],
      ['big-cache.json', (s) => (s.fastCache.sizeGB = 4000), /fastCache\.sizeGB: is larger than the drive/],
    ];
    for (const [name, edit, message] of cases) {
      const out = await runCli(['forecast', '--candidate', spec(name, edit), '--db', db]);
      assert.equal(out.code, 2, name);
      assert.match(out.stderr, new RegExp(`spec sheet .*${name} is refused`));
      assert.match(out.stderr, message);
      assert.equal(out.stdout, '');
    }
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ "name": ');
    const bad = await runCli(['forecast', '--candidate', notJson, '--db', db]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /is not JSON .*--example prints a spec sheet/);
  });

  it('two spec sheets and an imported run side by side: bus cap said, workloads forecast, all estimated', async () => {
    const sata = spec('sata.json', (s) => (s.name = 'SATA 560'));
    const nvme = spec('nvme.json', (s) => {
      s.name = 'NVMe 3500';
      s.interface = 'nvme';
      s.sequentialMBps = { read: 3500, write: 3000 };
      s.fastCache.writeMBpsPastCache = 1500;
    });
    const out = await runCli(['forecast', '--candidate', sata, '--candidate', nvme, '--candidate', String(ids.imported), '--db', db]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^Forecast \(estimated\) for the disk in use today: sda/);
    assert.match(out.stdout, /figure +today +1\. SATA 560 +2\. NVMe 3500 +3\. a friend's Crucial MX500/);
    assert.match(out.stdout, /sequential read +100 +279 \(drive 560, bus\) +3,500 +279 \(drive 500, bus\)/);
    assert.match(out.stdout, /the bus \(SATA 3\.0 Gb\/s, 300 MB\/s\) is the limit: sequential read 560 → 279 MB\/s/);
    assert.match(out.stdout, /an NVMe drive: this machine's disk sits on SATA/);
    assert.match(out.stdout, /3\. a friend's Crucial MX500: imported \(kdiskmark\) run \d+ "a friend's Crucial MX500": measured elsewhere/);
    assert.match(out.stdout, /bigfile write +12\.0 s +\d\.\d+ s \(\d\.\d+–\d\.\d+ s\) ×\d+\.\d/);
    assert.match(out.stdout, /Every figure is estimated, not measured; model accuracy, measured in the lab/);

    const json = await runCli(['forecast', '--candidate', sata, '--json', '--db', db]);
    assert.equal(json.code, 0, json.stderr);
    const f = JSON.parse(json.stdout) as Forecast;
    assert.equal(f.provenance, 'estimated');
    assert.equal(f.current.runId, ids.current);
    assert.equal(f.candidates[0]!.capped.figures.seqRead.limit, 'bus');
    assert.deepEqual(
      f.candidates[0]!.workloads.map((w) => `${w.test} ${w.phase}`),
      ['bigfile write', 'bigfile delete', 'tree write'],
    );
  });

  it('bad usage: no candidate, more than four, a workload run as candidate, --current not a disk', async () => {
    const sata = spec('ok.json');
    const none = await runCli(['forecast', '--db', db]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /give a candidate: --candidate ssd\.json/);
    const five = await runCli(['forecast', ...Array.from({ length: 5 }, () => ['--candidate', sata]).flat(), '--db', db]);
    assert.equal(five.code, 2);
    assert.match(five.stderr, /at most 4 candidates/);
    const workload = await runCli(['forecast', '--candidate', String(ids.workloads), '--db', db]);
    assert.equal(workload.code, 2);
    assert.match(workload.stderr, /is not a disk measured by the rate tests/);
    const current = await runCli(['forecast', '--candidate', sata, '--current', String(ids.workloads), '--db', db]);
    assert.equal(current.code, 2);
    assert.match(current.stderr, /--current \d+: "SYNTHETIC workloads" is not a disk/);
    const neither = await runCli(['forecast', '--candidate', 'no-such-file.json', '--db', db]);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /neither a file nor a run id/);
  });

  it("an unreadable run among the newest is passed over: the newest readable disk run is today's", async () => {
    const other = join(dir, 'unreadable.sqlite');
    const library = openLibrary({ dbPath: other });
    const readable = library.saveRun(currentDiskRun());
    const broken = library.saveRun(currentDiskRun({ label: 'changed outside DiskDelta' }));
    library.close();
    const raw = new DatabaseSync(other);
    raw.exec(`PRAGMA ignore_check_constraints = ON; UPDATE runs SET device = 'not json' WHERE id = ${broken}`);
    raw.close();
    const out = await runCli(['forecast', '--candidate', spec('unreadable.json'), '--json', '--db', other]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as Forecast).current.runId, readable);
  });

  it("names the run a refusal is about as the command's user gave it: a flag, or the assessment's before run", () => {
    const refuse = () => {
      throw new ForecastError('input', '"x" is not a disk measured by the rate tests', { as: 'current', id: 7 });
    };
    assert.throws(
      () => asCliError(refuse),
      (e: Error) => e instanceof UsageError && e.message.startsWith('--current 7: '),
    );
    assert.throws(
      () => asCliError(refuse, ASSESSMENT_RUNS),
      (e: Error) => e instanceof UsageError && e.message.startsWith('the before run 7: "x" is not a disk'),
    );
  });
});
