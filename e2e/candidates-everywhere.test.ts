// One forecast of candidate drives, rendered everywhere (#42): `diskdelta forecast --json` and the
// app's API (forecast.candidates, what the Candidates page draws) read the same library and must
// give the same forecast, so the page's table (report/candidates-model.ts, the report's too) is
// the same cell for cell. A malformed call gets BAD_INPUT naming the field, as the CLI does.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../electron/cli/run-cli-in-process.ts';
import { formatForecastText } from '../electron/cli/forecast-text.ts';
import { openLibrary, type Library } from '../electron/node/store/library.ts';
import { invoke } from '../electron/node/api/dispatch.ts';
import { createHandlers } from '../electron/node/api/handlers.ts';
import { currentDiskRun, recordingRun, workloadRun } from '../electron/shared/analysis/forecast-fixtures.ts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { CandidatesTableView } from '../electron/shared/report/candidates-view.ts';
import { RECORD_HINT } from '../electron/shared/analysis/replay-forecast.ts';
import { EXAMPLE_CANDIDATE } from '../electron/shared/model/candidate.ts';
import type { Forecast } from '../electron/shared/analysis/candidate-forecast.ts';
import { candidatesTable } from '../electron/shared/report/candidates-model.ts';
import { renderReportHtml } from '../electron/shared/report/report-html.ts';
import { judgedLine, type JudgedCandidate } from '../electron/shared/analysis/candidate-judged.ts';
import type { Figure } from '../electron/shared/model/results.ts';
import { judgedTable } from '../electron/shared/report/judged-model.ts';

const dir = mkdtempSync(join(tmpdir(), 'dd-candidates-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The spec sheet's origin names where it was given (a file, the app's form): everything else must agree. */
function withoutSpecSource(f: Forecast): Forecast {
  const copy = structuredClone(f);
  for (const c of copy.candidates)
    if (c.capped.candidate.origin === 'spec sheet')
      c.capped.candidate.originText = c.capped.candidate.originText.replace(
        /^spec sheet (entered in the app \(candidate \d\)|\S+\.json)/,
        'spec sheet',
      );
  return copy;
}

/** The new disk of the assessment tests: another drive in the same slot. SYNTHETIC. */
const NEW_DISK = { name: 'sdb', model: 'New SSD', serial: 'NEW1', rotational: false, class: 'SATA SSD' as const };

/** A workload phase timed `times` quicker, pass for pass. */
function timedFaster(f: Figure, times: number): Figure {
  return { ...f, value: f.value! / times, passes: f.passes!.map((p) => p / times) };
}

/** The report's Candidates section, alone: a figure's words also name rows of other sections. */
function candidatesSection(html: string): string {
  const start = html.indexOf('data-testid="report-candidates"');
  assert.ok(start >= 0, 'the report has a Candidates section');
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

/** The judged table's rows in the report as `assess show` words them ("sequential read: forecast ×2.79, measured ×2.60"), candidate by candidate. */
function judgedLinesOfReport(html: string): string[] {
  const section = candidatesSection(html);
  const table = /<table class="judged-candidates"[\s\S]*?<\/table>/.exec(section)?.[0];
  assert.ok(table, 'the Candidates section has the judged table');
  const cells = (row: string) => [...row.matchAll(/<t[hd][^>]*>([^<]*)<\/t[hd]>/g)].map((m) => m[1]!);
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => cells(m[1]!));
  const count = rows[0]!.length - 2;
  return Array.from({ length: count }, (_, i) =>
    rows.flatMap(([figure, measured, ...forecasts]) =>
      forecasts[i] && forecasts[i] !== '—' ? [judgedLine(figure!, forecasts[i], measured!)] : [],
    ),
  ).flat();
}

describe('the CLI and the app forecast candidates alike', () => {
  const db = join(dir, 'library.sqlite');
  let library: Library;
  let imported = 0;
  let sameModel = 0;
  const nvme = structuredClone(EXAMPLE_CANDIDATE);
  nvme.name = 'NVMe 3500';
  nvme.interface = 'nvme';
  nvme.sequentialMBps = { read: 3500, write: 3000 };
  nvme.fastCache.writeMBpsPastCache = 1500;
  before(() => {
    library = openLibrary({ dbPath: db });
    library.saveRun(currentDiskRun());
    library.saveRun(workloadRun());
    // A recorded day (diskdelta record): the forecast replays it on each disk.
    const { id: _, ...recording } = recordingRun();
    library.saveRun(recording);
    imported = library.saveRun({
      ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
    });
    // The same model again, another friend's: told apart by the label each was given.
    sameModel = library.saveRun({
      ...currentDiskRun({ label: "Ben's MX500 (2024)", source: 'imported', sourceFormat: 'crystaldiskmark' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 4 })),
    });
  });
  after(() => library.close());

  it('--json and forecast.candidates give one forecast, and the page draws the same table', async () => {
    const sata = join(dir, 'sata.json');
    const other = join(dir, 'nvme.json');
    writeFileSync(sata, JSON.stringify(EXAMPLE_CANDIDATE));
    writeFileSync(other, JSON.stringify(nvme));
    const cli = await runCli([
      'forecast',
      '--candidate',
      sata,
      '--candidate',
      other,
      '--candidate',
      String(imported),
      '--json',
      '--db',
      db,
    ]);
    assert.equal(cli.code, 0, cli.stderr);
    const fromCli = JSON.parse(cli.stdout) as Forecast;

    const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
    const app = await invoke(handlers, 'forecast.candidates', {
      candidates: [
        { kind: 'spec', spec: EXAMPLE_CANDIDATE },
        { kind: 'spec', spec: nvme },
        { kind: 'run', id: imported },
      ],
    });
    assert.ok(app.ok, JSON.stringify(app));
    const fromApp = (app.data as { forecast: Forecast }).forecast;
    assert.match(fromApp.candidates[0]!.capped.candidate.originText, /^spec sheet entered in the app \(candidate 1\)/);
    assert.match(fromCli.candidates[0]!.capped.candidate.originText, /^spec sheet .*sata\.json/);
    assert.deepEqual(withoutSpecSource(fromApp), withoutSpecSource(fromCli));
    // The CLI's words (forecast without --json) say the app's table: each cap's reason and each rate's cells.
    const text = await runCli(['forecast', '--candidate', sata, '--candidate', other, '--candidate', String(imported), '--db', db]);
    assert.equal(text.code, 0, text.stderr);
    for (const reason of candidatesTable(fromApp).reasons.flat()) assert.ok(text.stdout.includes(`  - ${reason}.`), reason);
    for (const row of candidatesTable(fromApp).rates)
      assert.match(text.stdout, new RegExp(`^${row.figure} +${row.today} +${row.cells.map((c) => c.text).join(' .*')}`, 'm'), row.figure);
    // Not an empty agreement: the table carries the bus cap, the workloads and the lab's accuracy line.
    const table = candidatesTable(fromApp);
    assert.equal(table.candidates.length, 3);
    assert.ok(table.rates.some((r) => r.cells.some((c) => c.limit === 'bus')));
    assert.ok(table.workloads.length > 0 && table.workloads.every((w) => w.cells.every((c) => c.detail !== null)));
    assert.match(table.accuracy, /estimated, not measured; model accuracy, measured in the lab/);

    // The recorded day replayed: one row, the same in --json, the CLI's words and the page's table.
    assert.ok('runId' in fromCli.replay.recorded, JSON.stringify(fromCli.replay.recorded));
    assert.equal(fromCli.replay.candidates.length, 3);
    const replay = table.replay;
    assert.ok(replay, 'the table has the replay row');
    assert.ok(
      [replay.today, ...replay.cells].every((c) => /^[\d.]+ s$/.test(c.text) && c.detail !== null),
      JSON.stringify(replay),
    );
    assert.ok(replay.cells.every((c) => c.gain !== null));
    const cliRow = text.stdout.split('\n').find((l) => l.startsWith(replay.what));
    assert.ok(cliRow, text.stdout);
    let at = 0;
    for (const c of [replay.today, ...replay.cells])
      for (const part of [c.text, c.detail!, ...(c.gain ? [c.gain] : [])]) {
        const found = cliRow.indexOf(part, at);
        assert.ok(found >= at, `${part} in order in ${cliRow}`);
        at = found + part.length;
      }
    for (const line of table.replayLines) assert.ok(text.stdout.includes(line), line);
    assert.ok(table.replayLines.some((l) => /not measured in the lab/.test(l)));
    assert.ok(table.replayLines.some((l) => /writes are counted as reads would be/.test(l)));
    // The page draws that row: each cell's forecast, range and gain, in the candidates' order.
    const page = renderToStaticMarkup(createElement(CandidatesTableView, { table }));
    const row = /<tr data-testid="forecast-replay-row">([\s\S]*?)<\/tr>/.exec(page)?.[1];
    assert.ok(row, 'the page has the replay row');
    const pageCells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    assert.deepEqual(
      pageCells,
      [replay.today, ...replay.cells].map((c) => `${c.text}${c.gain ? ` ${c.gain}` : ''}${c.detail ?? ''}`),
    );
  });

  it('no recorded day in the library: one line saying how to record one, never an error', async () => {
    const bare = join(dir, 'bare.sqlite');
    const lib = openLibrary({ dbPath: bare });
    lib.saveRun(currentDiskRun());
    lib.close();
    const sata = join(dir, 'bare-sata.json');
    writeFileSync(sata, JSON.stringify(EXAMPLE_CANDIDATE));
    const text = await runCli(['forecast', '--candidate', sata, '--db', bare]);
    assert.equal(text.code, 0, text.stderr);
    const said = `A recorded day replayed: not judged: no recorded day of file accesses in the library (record one: ${RECORD_HINT}).`;
    assert.equal(
      text.stdout
        .split('\n')
        .filter((l) => l.includes('recorded day'))
        .join('\n'),
      said,
    );
    const json = JSON.parse((await runCli(['forecast', '--candidate', sata, '--json', '--db', bare])).stdout) as Forecast;
    assert.equal(json.replay.today, null);
  });

  it('two imported runs of one model are named by their labels, in --json, the CLI text and the page', async () => {
    const ids = [String(imported), String(sameModel)];
    const cli = await runCli(['forecast', '--candidate', ids[0]!, '--candidate', ids[1]!, '--json', '--db', db]);
    assert.equal(cli.code, 0, cli.stderr);
    const names = ["a friend's Crucial MX500", "Ben's MX500 (2024)"];
    assert.deepEqual(
      (JSON.parse(cli.stdout) as Forecast).candidates.map((c) => c.capped.candidate.name),
      names,
    );
    const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
    const app = await invoke(handlers, 'forecast.candidates', {
      candidates: [
        { kind: 'run', id: imported },
        { kind: 'run', id: sameModel },
      ],
    });
    assert.ok(app.ok, JSON.stringify(app));
    assert.deepEqual(
      candidatesTable((app.data as { forecast: Forecast }).forecast).candidates.map((c) => c.name),
      names,
    );
    const text = await runCli(['forecast', '--candidate', ids[0]!, '--candidate', ids[1]!, '--db', db]);
    assert.match(text.stdout, /figure +today +1\. a friend's Crucial MX500 +2\. Ben's MX500 \(2024\)/);
  });

  it('report.render of runs has no Candidates section: an assessment with candidates brings it', async () => {
    const handlers = createHandlers({ library, formats: null, system: null, runs: null, reportHtml: renderReportHtml, missing: {} });
    const plain = await invoke(handlers, 'report.render', { runs: [{ kind: 'run', id: 1 }], format: 'html', paper: 'a4', unit: 'MB' });
    assert.ok(plain.ok);
    assert.doesNotMatch(
      Buffer.from((plain.data as { contentBase64: string }).contentBase64, 'base64').toString('utf8'),
      /report-candidates/,
    );
  });

  it('a malformed call is BAD_INPUT, a refused spec sheet names each field as the CLI does', async () => {
    const handlers = createHandlers({ library, formats: null, system: null, runs: null, missing: {} });
    const none = await invoke(handlers, 'forecast.candidates', { candidates: [] });
    assert.equal(none.ok ? 'ok' : none.error.code, 'BAD_INPUT');
    const five = await invoke(handlers, 'forecast.candidates', { candidates: Array(5).fill({ kind: 'run', id: imported }) });
    assert.equal(five.ok ? 'ok' : five.error.code, 'BAD_INPUT');
    const bad = structuredClone(EXAMPLE_CANDIDATE) as Record<string, any>;
    delete bad.sequentialMBps.write;
    bad.enduranceTBW = -5;
    const refused = await invoke(handlers, 'forecast.candidates', { candidates: [{ kind: 'spec', spec: bad }] });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'BAD_INPUT');
    assert.match(refused.error.message, /sequentialMBps\.write: missing/);
    assert.match(refused.error.message, /enduranceTBW: must be above 0/);
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify(bad));
    const cli = await runCli(['forecast', '--candidate', path, '--db', db]);
    assert.equal(cli.code, 2);
    for (const line of refused.error.message.split('\n').slice(1)) assert.ok(cli.stderr.includes(line.trim()), line);
    const notDisk = await invoke(handlers, 'forecast.candidates', { candidates: [{ kind: 'run', id: 2 }] });
    assert.ok(!notDisk.ok);
    assert.equal(notDisk.error.code, 'BAD_INPUT');
    assert.match(notDisk.error.message, /^candidate run 2: /);
    const missing = await invoke(handlers, 'forecast.candidates', { candidates: [{ kind: 'run', id: 999 }] });
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'NOT_FOUND');
  });

  it('an assessment keeps its candidates, forecasts them from its before run, and sets each beside the after run once measured', async () => {
    const adb = join(dir, 'assess.sqlite');
    const lib = openLibrary({ dbPath: adb });
    const before = lib.saveRun(currentDiskRun());
    const after = lib.saveRun({
      ...currentDiskRun({ label: 'the new SSD' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })),
    });
    lib.close();
    const sata = join(dir, 'assess-sata.json');
    writeFileSync(sata, JSON.stringify(EXAMPLE_CANDIDATE));
    const bad = join(dir, 'assess-bad.json');
    writeFileSync(bad, JSON.stringify({ ...EXAMPLE_CANDIDATE, enduranceTBW: -1 }));
    const cli = (...args: string[]) => runCli([...args, '--db', adb]);
    assert.equal((await cli('assess', 'start', 'laptop', '--before', String(before))).code, 0);

    // A mistyped path is said as `forecast` says it, with what to give; a sheet past 64 KiB alike.
    const mistyped = await cli('assess', 'set', '1', '--candidate', join(dir, 'no-such-sheet.json'));
    assert.equal(mistyped.code, 2);
    assert.match(mistyped.stderr, /is neither a file nor a run id: give a spec sheet's path or a run id from diskdelta list/);
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, ' '.repeat(70 * 1024));
    for (const command of [['assess', 'set', '1'], ['forecast']]) {
      const big = await cli(...command, '--candidate', huge);
      assert.equal(big.code, 2);
      assert.match(big.stderr, /huge\.json is not a spec sheet: larger than 64 KiB/);
    }
    const refused = await cli('assess', 'set', '1', '--candidate', bad);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /enduranceTBW: must be above 0/);
    const set = await cli('assess', 'set', '1', '--candidate', sata, '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual((JSON.parse(set.stdout) as { candidates: unknown[] }).candidates, [
      { kind: 'spec', source: sata, spec: EXAMPLE_CANDIDATE },
    ]);

    const said = await cli('assess', 'set', '1', '--candidate', sata);
    assert.match(
      said.stdout,
      new RegExp(
        `^ {2}Candidates kept: Example SATA SSD 1 TB \\(from ${sata.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)\\. diskdelta assess show 1 gives their forecast\\.$`,
        'm',
      ),
      said.stdout,
    );
    const waiting = await cli('assess', 'show', '1');
    assert.equal(waiting.code, 0, waiting.stderr);
    assert.match(waiting.stdout, /Candidates \(estimated from the before run/);
    assert.match(waiting.stdout, /the bus \(SATA 3\.0 Gb\/s, 300 MB\/s\) is the limit: sequential read 560 → 279 MB\/s/);
    assert.match(waiting.stdout, /Once the after run is measured/);

    assert.equal((await cli('assess', 'set', '1', '--after', String(after))).code, 0);
    const judged = await cli('assess', 'show', '1');
    assert.match(judged.stdout, /sequential read: forecast ×2\.79, measured ×2\.60/);
    const json = JSON.parse((await cli('assess', 'show', '1', '--json')).stdout) as {
      candidatesForecast: {
        forecast: Forecast;
        judged: Array<{ figures: Array<{ key: string; forecastGain: number; measuredGain: number }> }>;
      };
    };
    // Both kept: the forecast made from the before run, and the measured gain beside it.
    assert.equal(json.candidatesForecast.forecast.current.runId, before);
    // The whole forecast is shown, from the before run: `diskdelta forecast` would start from the newest disk run.
    assert.ok(judged.stdout.includes(formatForecastText(json.candidatesForecast.forecast)), judged.stdout);
    assert.doesNotMatch(judged.stdout, /diskdelta forecast shows/);
    const seq = json.candidatesForecast.judged[0]!.figures.find((f) => f.key === 'seqRead')!;
    assert.ok(Math.abs(seq.measuredGain - 2.6) < 1e-9 && Math.abs(seq.forecastGain - 2.79) < 1e-9);
    // The report's Candidates section, from the same forecast.
    const out = join(dir, 'assess.html');
    const report = await cli('assess', 'report', '1', '--html', '--out', out);
    assert.equal(report.code, 0, report.stderr);
    // Its judged table says `assess show`'s lines, read back from the HTML cell by cell.
    const showLines = judged.stdout.split('\n').flatMap((l) => (/: forecast ×.*, measured ×/.test(l) ? [l.trim()] : []));
    assert.ok(showLines.includes('sequential read: forecast ×2.79, measured ×2.60'), judged.stdout);
    assert.deepEqual(judgedLinesOfReport(readFileSync(out, 'utf8')), showLines);
    const cleared = await cli('assess', 'set', '1', '--candidate', 'none');
    assert.equal(cleared.code, 0);
    assert.match(cleared.stdout, /^ {2}Candidates: none kept\.$/m, 'set says what it kept');
    assert.doesNotMatch((await cli('assess', 'show', '1')).stdout, /Candidates \(/);
  });

  it("the app keeps an assessment's candidates as `assess set` does, and forecasts them as `assess show --json` does", async () => {
    const adb = join(dir, 'assess-app.sqlite');
    const lib = openLibrary({ dbPath: adb });
    const before = lib.saveRun(currentDiskRun());
    const friend = lib.saveRun({
      ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
    });
    const workload = lib.saveRun(workloadRun());
    // The new disk: another drive, its rates and (below) its workloads timed on it.
    const newDisk = { ...currentDiskRun().target, path: '/mnt/new', device: { ...currentDiskRun().target.device!, ...NEW_DISK } };
    const after = lib.saveRun({
      ...currentDiskRun({ label: 'the new SSD', target: newDisk }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })),
    });
    // Timed on the new disk: the big file four times quicker (its delete not timed: its row says so), the tree five.
    const base = workloadRun();
    lib.saveRun({
      ...workloadRun({ label: 'SYNTHETIC workloads on the new disk', target: newDisk }),
      results: [
        { ...base.results[0]!, figures: [timedFaster(base.results[0]!.figures![0]!, 4)] },
        { ...base.results[1]!, figures: [timedFaster(base.results[1]!.figures![0]!, 5)] },
      ],
    });
    // A newer workload run on a third disk: never taken for the new disk's.
    lib.saveRun({
      ...workloadRun({ label: 'SYNTHETIC workloads on a USB stick' }),
      target: { ...newDisk, path: '/media/usb', device: { ...newDisk.device, name: 'sdc', model: 'USB stick', serial: 'USB1' } },
      results: base.results.map((r) => ({ ...r, figures: r.figures!.map((f) => timedFaster(f, 50)) })),
    });
    const handlers = createHandlers({ library: lib, formats: null, system: null, runs: null, reportHtml: renderReportHtml, missing: {} });
    const started = await invoke(handlers, 'assessments.start', { label: 'laptop', steps: { before: { kind: 'run', id: before } } });
    assert.ok(started.ok, JSON.stringify(started));
    const id = (started.data as { id: number }).id;
    const candidates = [
      { kind: 'spec', spec: EXAMPLE_CANDIDATE },
      { kind: 'run', id: friend },
    ];
    const set = await invoke(handlers, 'assessments.setCandidates', { id, candidates });
    assert.ok(set.ok, JSON.stringify(set));
    assert.deepEqual((set.data as { candidates: unknown }).candidates, [
      { kind: 'spec', source: 'entered in the app', spec: EXAMPLE_CANDIDATE },
      { kind: 'run', id: friend },
    ]);

    // Refused, whatever is wrong, and the kept candidates stay as they were.
    const bad = structuredClone(EXAMPLE_CANDIDATE) as Record<string, any>;
    delete bad.sequentialMBps.write;
    bad.enduranceTBW = -5;
    const refusals: Array<[unknown, RegExp, string]> = [
      [
        { id, candidates: [{ kind: 'spec', spec: bad }] },
        /sequentialMBps\.write: missing[\s\S]*enduranceTBW: must be above 0/,
        'BAD_INPUT',
      ],
      [
        {
          id,
          candidates: [
            { kind: 'run', id: friend },
            { kind: 'run', id: workload },
          ],
        },
        new RegExp(`^candidate run ${workload}: `),
        'BAD_INPUT',
      ],
      [{ id, candidates: [{ kind: 'run', id: 999 }] }, /no run 999/, 'NOT_FOUND'],
      [{ id, candidates: Array(5).fill({ kind: 'run', id: friend }) }, /candidates/, 'BAD_INPUT'],
      [{ id, candidates: [{ kind: 'spec' }], extra: 1 }, /extra|spec/, 'BAD_INPUT'],
      [{ id: 77, candidates: [] }, /no assessment 77/, 'NOT_FOUND'],
      // A file name is printed in terminals later (its source): one that could move a terminal is refused.
      [
        { id, candidates: [{ kind: 'spec', spec: EXAMPLE_CANDIDATE, file: 'a\u001b[2Jb.json' }] },
        /without control characters/,
        'BAD_INPUT',
      ],
    ];
    for (const [input, message, code] of refusals) {
      const refused = await invoke(handlers, 'assessments.setCandidates', input);
      assert.ok(!refused.ok, JSON.stringify(input));
      assert.equal(refused.error.code, code, refused.error.message);
      assert.match(refused.error.message, message);
    }
    assert.equal(lib.getAssessment(id)!.candidates!.length, 2);

    // The CLI refuses the same sheet with the same words, and keeps nothing either.
    const path = join(dir, 'assess-app-bad.json');
    writeFileSync(path, JSON.stringify(bad));
    const refusedFirst = await invoke(handlers, 'assessments.setCandidates', { id, candidates: [{ kind: 'spec', spec: bad }] });
    assert.ok(!refusedFirst.ok);
    const cliRefused = await runCli(['assess', 'set', String(id), '--candidate', path, '--db', adb]);
    assert.equal(cliRefused.code, 2);
    for (const line of refusedFirst.error.message.split('\n').slice(1)) assert.ok(cliRefused.stderr.includes(line.trim()), line);
    assert.equal(lib.getAssessment(id)!.candidates!.length, 2);

    // A sheet kept from a file by the CLI, sent back as the app lists it, keeps where it came from.
    const good = join(dir, 'assess-app-good.json');
    writeFileSync(good, JSON.stringify(EXAMPLE_CANDIDATE));
    assert.equal((await runCli(['assess', 'set', String(id), '--candidate', good, '--db', adb])).code, 0);
    const resent = await invoke(handlers, 'assessments.setCandidates', { id, candidates });
    assert.ok(resent.ok);
    assert.deepEqual((resent.data as { candidates: unknown }).candidates, [
      { kind: 'spec', source: good, spec: EXAMPLE_CANDIDATE },
      { kind: 'run', id: friend },
    ]);
    // A new sheet the app read from a file is kept as that file, by the name the app gave.
    const fromFile = { ...EXAMPLE_CANDIDATE, name: 'Read from a file in the app' };
    const withFile = await invoke(handlers, 'assessments.setCandidates', {
      id,
      candidates: [...candidates, { kind: 'spec', spec: fromFile, file: 'samsung-990.json' }],
    });
    assert.ok(withFile.ok, JSON.stringify(withFile));
    assert.deepEqual((withFile.data as { candidates: unknown[] }).candidates[2], {
      kind: 'spec',
      source: 'file samsung-990.json chosen in the app',
      spec: fromFile,
    });
    assert.ok((await invoke(handlers, 'assessments.setCandidates', { id, candidates })).ok);

    // Before the after run: the forecast, nothing judged yet; then beside the measurement, as `assess show --json`.
    const waiting = await invoke(handlers, 'assessments.candidates', { id });
    assert.ok(waiting.ok, JSON.stringify(waiting));
    assert.equal((waiting.data as { judged: unknown }).judged, null);
    assert.ok((await invoke(handlers, 'assessments.set', { id, steps: { after: { kind: 'run', id: after } } })).ok);
    const app = await invoke(handlers, 'assessments.candidates', { id });
    assert.ok(app.ok, JSON.stringify(app));
    const show = await runCli(['assess', 'show', String(id), '--json', '--db', adb]);
    assert.equal(show.code, 0, show.stderr);
    assert.deepEqual(app.data, JSON.parse(show.stdout).candidatesForecast);
    // The page's table (report/judged-model.ts) says each of `assess show`'s lines, cell by cell.
    const cliJudged = (JSON.parse(show.stdout) as { candidatesForecast: { judged: JudgedCandidate[] } }).candidatesForecast.judged;
    const table = judgedTable((app.data as { judged: JudgedCandidate[] }).judged);
    const said = table.candidates.map((_, i) =>
      table.rows.flatMap((r) => (r.forecasts[i] ? [judgedLine(r.figure, r.forecasts[i], r.measured)] : [])),
    );
    assert.deepEqual(
      said,
      cliJudged.map((c) => [...c.figures, ...c.workloads].map((f) => f.line)),
    );
    assert.ok(said[0]!.includes('sequential read: forecast ×2.79, measured ×2.60'));
    // The workloads: each forecast gain beside its gain measured on the new disk (passes' spread, ⚑ where noisy).
    const workloadLines = said[0]!.filter((l) => /^(bigfile|tree) /.test(l));
    assert.deepEqual(
      workloadLines.map((l) => l.replace(/forecast ×[\d.]+/, 'forecast ×F')),
      [
        'bigfile write: forecast ×F, measured ×4.00 (×3.68–×4.35) ⚑',
        'bigfile delete: forecast ×F (rough), not measured on the new disk',
        'tree write: forecast ×F (rough), measured ×5.00 (×5.00–×5.00)',
      ],
    );
    assert.deepEqual(table.unmeasured, [
      'bigfile: not measured on the new disk; diskdelta run --tests bigfile --target /mnt/new times it there',
    ]);
    assert.ok(table.noisyNote);
    // A wide forecast range is marked "(rough)" here as in the forecast's own table, and said once.
    assert.ok(table.roughNote);
    // `assess show` says the same lines, and the command, the ⚑ and "rough" once.
    const showText = await runCli(['assess', 'show', String(id), '--db', adb]);
    for (const line of [...said[0]!, `${table.unmeasured[0]}.`, table.noisyNote, `${table.roughNote}.`])
      assert.ok(showText.stdout.includes(line), line);

    // The app's assessment report carries the Candidates section, as `assess report` does.
    const report = await invoke(handlers, 'assessments.report', { id, format: 'html', paper: 'a4', unit: 'MB' });
    assert.ok(report.ok, JSON.stringify(report));
    const reportHtml = Buffer.from((report.data as { contentBase64: string }).contentBase64, 'base64').toString('utf8');
    // The same table as the app's card: each rate's row and the lab's accuracy line, in the Candidates section.
    const section = candidatesSection(reportHtml);
    const drawn = candidatesTable((app.data as { forecast: Forecast }).forecast);
    for (const row of drawn.rates) assert.ok(section.includes(`>${row.figure}<`), row.figure);
    assert.ok(section.includes(drawn.accuracy.replace(/&/g, '&amp;')));
    // The replay's line too: no recorded day in this library, and how to record one.
    assert.match(drawn.replayLines[0]!, /no recorded day of file accesses in the library/);
    assert.ok(section.includes(drawn.replayLines[0]!), drawn.replayLines[0]);
    assert.deepEqual(
      judgedLinesOfReport(reportHtml),
      cliJudged.flatMap((c) => [...c.figures, ...c.workloads].map((f) => f.line)),
    );
    assert.ok(section.includes(table.unmeasured[0]!), 'the report says which command times the rest');
    // The run candidate is named by its label there too, in the side-by-side table and the judged one.
    assert.deepEqual(table.candidates, ['1. Example SATA SSD 1 TB', "2. a friend's Crucial MX500"]);
    assert.ok(section.includes('forecast: 2. a friend&#x27;s Crucial MX500'), 'the judged table heading');

    // None: the assessment weighs no candidate, and has no forecast.
    assert.ok((await invoke(handlers, 'assessments.setCandidates', { id, candidates: [] })).ok);
    const none = await invoke(handlers, 'assessments.candidates', { id });
    assert.ok(none.ok);
    assert.equal(none.data, null);
    lib.close();
  });

  it('a candidate run deleted from the library leaves the candidates, and show, report and the app say which went', async () => {
    const adb = join(dir, 'assess-deleted.sqlite');
    const lib = openLibrary({ dbPath: adb });
    const before = lib.saveRun(currentDiskRun());
    const friend = lib.saveRun({
      ...currentDiskRun({ label: "a friend's Crucial MX500", source: 'imported', sourceFormat: 'kdiskmark' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 5 })),
    });
    const after = lib.saveRun({
      ...currentDiskRun({ label: 'the new SSD' }),
      results: currentDiskRun().results.map((r) => ({ ...r, bytesPerSec: r.bytesPerSec! * 2.6 })),
    });
    const handlers = createHandlers({ library: lib, formats: null, system: null, runs: null, reportHtml: renderReportHtml, missing: {} });
    const id = lib.createAssessment('laptop', { before, after }).id;
    const sata = join(dir, 'deleted-sata.json');
    writeFileSync(sata, JSON.stringify(EXAMPLE_CANDIDATE));
    const setBoth = await runCli(['assess', 'set', String(id), '--candidate', sata, '--candidate', String(friend), '--db', adb]);
    assert.equal(setBoth.code, 0, setBoth.stderr);
    assert.ok(setBoth.stdout.includes(`; run ${friend} "a friend's Crucial MX500". diskdelta assess show`), setBoth.stdout);
    assert.ok(lib.deleteRun(friend));

    // The spec sheet stays, the run has gone from the candidates, and which run went is kept.
    const kept = lib.getAssessment(id)!;
    assert.deepEqual(kept.candidates, [{ kind: 'spec', source: sata, spec: EXAMPLE_CANDIDATE }]);
    assert.deepEqual(
      kept.candidatesEmptied?.map((e) => [e.run, e.label]),
      [[friend, "a friend's Crucial MX500"]],
    );
    const said = `candidate run ${friend} "a friend's Crucial MX500" was deleted from the library on `;
    const show = await runCli(['assess', 'show', String(id), '--db', adb]);
    assert.equal(show.code, 0, show.stderr);
    assert.ok(show.stdout.includes(said), show.stdout);
    assert.match(show.stdout, new RegExp(`diskdelta assess set ${id} --candidate FILE\\|RUN … .*replaces it`));
    assert.match(show.stdout, /sequential read: forecast ×2\.79, measured ×2\.60/);
    const out = join(dir, 'deleted.html');
    const report = await runCli(['assess', 'report', String(id), '--html', '--out', out, '--db', adb]);
    assert.equal(report.code, 0, report.stderr);
    assert.match(readFileSync(out, 'utf8'), /data-testid="report-candidates"/);
    const app = await invoke(handlers, 'assessments.candidates', { id });
    assert.ok(app.ok, JSON.stringify(app));
    assert.equal((app.data as { forecast: Forecast }).forecast.candidates.length, 1);
    const got = await invoke(handlers, 'assessments.get', { id });
    assert.ok(got.ok);
    assert.equal((got.data as { candidatesEmptied: unknown[] }).candidatesEmptied.length, 1);
    const appReport = await invoke(handlers, 'assessments.report', { id, format: 'html', paper: 'a4', unit: 'MB' });
    assert.ok(appReport.ok, JSON.stringify(appReport));

    // Keeping the candidates again clears what was said.
    assert.ok((await invoke(handlers, 'assessments.setCandidates', { id, candidates: [{ kind: 'spec', spec: EXAMPLE_CANDIDATE }] })).ok);
    assert.deepEqual(lib.getAssessment(id)!.candidatesEmptied, []);
    assert.ok(!(await runCli(['assess', 'show', String(id), '--db', adb])).stdout.includes('was deleted'));
    lib.close();
  });
});
