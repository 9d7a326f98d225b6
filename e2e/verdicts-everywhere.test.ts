// One judgement, rendered everywhere (#39): each library below is read by the CLI (`assess show`,
// `assess report --html`), by the app's view model (renderer/src/view/assessment-verdicts.ts, fed
// what the app's API gives it) and by the report's page 1, and all three must say the same
// verdicts with the same numbers. The libraries: the shipped references alone; two synthetic
// measured disks with encryption measured, a discard pair and a scan; the same disks with only
// this CPU's cipher ceilings (a forecast); and with nothing but the two disks.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { runCli } from '../electron/cli/run-cli-in-process.ts';
import { openLibrary } from '../electron/node/store/library.ts';
import { thisCpu } from '../electron/node/crypto/cipher-ceilings.ts';
import { assessmentReportRuns } from '../electron/node/report/assessment-runs.ts';
import { loadReferenceRuns } from '../electron/node/formats/reference.ts';
import { buildReport } from '../electron/shared/report/report-model.ts';
import { wholeSpansAsText } from '../electron/shared/report/whole-text.ts';
import { workingSetFigures, WORKING_SET_TEST } from '../electron/shared/analysis/working-set.ts';
import type { Assessment, AssessmentField } from '../electron/shared/model/assessment.ts';
import type { CipherCeilings } from '../electron/shared/model/cipher-types.ts';
import { syntheticCeilings } from '../electron/shared/model/cipher-fixtures.ts';
import type { RunRecord, TestResult } from '../electron/shared/model/results.ts';
import { assessmentVerdictsView, verdictCardText, type VerdictsView } from '../renderer/src/view/assessment-verdicts.ts';
import { speedUpVerdict, trimCostVerdict } from '../electron/shared/analysis/verdicts.ts';
import { costVerdict, type DiscardCostResult } from '../electron/node/bench/trim/discard-cost.ts';
import { discardCostRuns } from '../electron/node/bench/trim/discard-runs.ts';
import { resultWithoutRuns, measuredRecord } from '../electron/shared/model/result-builders.ts';
import { deleteCostHead } from '../electron/node/bench/trim/discard-timing.ts';
import { SEED_TREE } from '../electron/node/bench/kinds/workload.ts';
import { discardCostText } from '../electron/cli/commands/discard-cost.ts';

const GB = 1e9;

function rate(
  test: string,
  rw: 'read' | 'write' | 'randread' | 'randwrite',
  bs: number,
  qd: number,
  bps: number,
  spread = 0.02,
): TestResult {
  const runs = [1 - spread, 1, 1 + spread].map((f, i) => ({
    run: i + 1,
    bytesPerSec: bps * f,
    iops: (bps * f) / bs,
    latencyNs: { p50: null, p90: null, p99: null, p999: null, mean: null, max: null },
    elapsedNs: 1e9,
    ios: Math.round((bps * f) / bs),
    bytes: Math.round(bps * f),
    cpu: { userNs: 0, systemNs: 0 },
    samples: [],
  }));
  return {
    ...resultWithoutRuns({ test, params: { rw, blockSize: bs, queueDepth: qd, threads: 1 }, bytesPerSec: bps, iops: bps / bs }),
    cv: spread,
    runs,
  };
}

function disk(label: string, o: { seq: number; rnd: number; size: number; cls: 'HDD' | 'SATA SSD'; encrypted?: boolean }): RunRecord {
  return measuredRecord({
    label,
    target: {
      path: '/mnt/t',
      kind: 'folder',
      device: {
        name: o.cls === 'HDD' ? 'loop0' : 'zram0',
        model: null,
        serial: null,
        sizeBytes: o.size,
        rotational: o.cls === 'HDD',
        class: o.cls,
        transport: null,
        linkCeilingBytesPerSec: null,
        linkDescription: null,
      },
      stack: o.encrypted
        ? [{ kind: 'dm-crypt', name: 'dd-crypt', details: { cipher: 'aes-xts-plain64' }, encrypted: true }]
        : [{ kind: 'disk', name: o.cls === 'HDD' ? 'loop0' : 'zram0', details: {} }],
    },
    system: { kernel: '6.1.0', cpuModel: 'Test CPU', cores: 2, threads: 2, cryptoFlags: ['aes'], memoryBytes: 8 * GB },
    settings: { preset: 'full', sizeBytes: 2 ** 30, durationSec: 1, warmupSec: 0.5, runs: 3 },
    engine: { name: 'diskdelta', version: '0.1.0', ioEngine: 'aio' },
    results: [
      rate('seq1m-q8t1-read', 'read', 2 ** 20, 8, o.seq),
      rate('seq1m-q8t1-write', 'write', 2 ** 20, 8, o.seq * 0.9),
      rate('rnd4k-q1t1-read', 'randread', 4096, 1, o.rnd),
      rate('rnd4k-q1t1-write', 'randwrite', 4096, 1, o.rnd * 1.5),
    ],
  });
}

/** A discard-cost run as bench/trim/discard-runs.ts keeps it: the delete phase's median and passes. */
function discardRun(option: 'no discard' | 'discard', passes: number[]): RunRecord {
  const sorted = [...passes].sort((a, b) => a - b);
  return {
    ...disk(`discard-cost on zram0: ${option === 'discard' ? 'mounted with discard' : 'without discard'}`, {
      seq: 1,
      rnd: 1,
      size: 1,
      cls: 'SATA SSD',
    }),
    sourceMeta: { experiment: 'discard-cost', 'mount option': option, tree: "source tree of the seed's size (45,168 files, 592 MB)" },
    results: [
      resultWithoutRuns({
        test: 'tree-3.9.1',
        params: null,
        bytesPerSec: null,
        iops: null,
        figures: [{ metric: 'phaseSeconds', subject: 'delete', value: sorted[1]!, unit: 's', provenance: 'measured', passes }],
      }),
    ],
  };
}

function scanRun(recentBytes: number): RunRecord {
  const summary = {
    totalBytes: recentBytes * 3,
    files: 1000,
    readsSeen: true,
    windows: [1, 7, 30, 90, 365].map((days) => ({
      days,
      touchedBytes: days >= 90 ? recentBytes : recentBytes / 2,
      writtenBytes: recentBytes / 4,
    })),
    folders: [{ name: 'src', bytes: recentBytes * 3, recentBytes }],
  };
  return {
    ...disk('working set of /home', { seq: 1, rnd: 1, size: 1, cls: 'SATA SSD' }),
    results: [
      resultWithoutRuns({
        test: WORKING_SET_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        figures: workingSetFigures(summary, 'a scan of /home'),
      }),
    ],
  };
}

/** Ceilings as if measured on this CPU (the library keeps them by its model): one core at `oneCore` bytes/s. */
async function ceilingsOfThisCpu(oneCore: number): Promise<CipherCeilings> {
  return syntheticCeilings({ oneCoreBps: oneCore, cpuModel: (await thisCpu()).model });
}

/** React escapes these in text: the HTML read back as the reader sees it. */
const unescape = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

interface Library {
  db: string;
  dir: string;
}

async function makeLibrary(
  t: { after: (fn: () => void) => void },
  fill: (save: (r: RunRecord) => number) => Promise<Partial<Record<AssessmentField, number>>> | Partial<Record<AssessmentField, number>>,
  ceilings: CipherCeilings | null = null,
): Promise<Library> {
  const dir = mkdtempSync(join(tmpdir(), 'dd-verdicts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'library.sqlite');
  const library = openLibrary({ dbPath: db });
  try {
    const steps = await fill((r) => library.saveRun(r));
    if (ceilings) library.saveCipherCeilings(ceilings);
    library.createAssessment('upgrade', steps);
  } finally {
    library.close();
  }
  return { db, dir };
}

/** The three renderings of assessment 1: the CLI's text and report, the app's view, the report's page 1 model. */
async function renderAll(lib: Library): Promise<{ cli: string; report: string; view: VerdictsView; page: string[] }> {
  const shown = await runCli(['assess', 'show', '1', '--db', lib.db]);
  assert.equal(shown.code, 0, shown.stderr);
  const out = join(lib.dir, 'r.html');
  const made = await runCli(['assess', 'report', '1', '--html', '--out', out, '--db', lib.db]);
  assert.equal(made.code, 0, made.stderr);
  const html = unescape(readFileSync(out, 'utf8'));
  const first = html.indexOf('data-testid="report-first-page"');
  assert.ok(first > 0, 'the report has page 1');
  const report = wholeSpansAsText(html.slice(first, html.indexOf('</section>', first)));
  // The app: the runs as library.get gives them, the shipped references, this CPU's stored ceilings.
  const library = openLibrary({ dbPath: lib.db });
  try {
    const a = library.getAssessment(1) as Assessment;
    const records = Object.fromEntries(
      [a.before, a.after, a.encrypted, a.discardOff, a.discardOn, a.workingSet]
        .filter((id): id is number => id !== null)
        .map((id) => [id, library.getRun(id)!]),
    );
    const ceilings = library.latestCipherCeilings(await thisCpu());
    const view = assessmentVerdictsView(a, records, await loadReferenceRuns(), ceilings);
    assert.ok(view, 'every run of the assessment was read');
    const doc = buildReport(assessmentReportRuns(library, a), { generatedAt: new Date(), assessment: a, ceilings });
    return { cli: shown.stdout, report, view, page: doc.firstPage!.sentences.map((s) => s.text) };
  } finally {
    library.close();
  }
}

/** Every verdict the app shows is said, word for word, by the CLI and on page 1; every figure of its table is on page 1. */
function assertSame(r: Awaited<ReturnType<typeof renderAll>>): string[] {
  const sentences = r.view.cards.map((c) => c.sentence);
  assert.deepEqual(r.page, sentences, 'the report model and the app carry the same sentences, in order');
  for (const s of sentences) {
    assert.ok(r.cli.includes(s), `assess show says: ${s}\n--- it said:\n${r.cli}`);
    assert.ok(r.report.includes(s), `page 1 says: ${s}`);
  }
  // Each card says its title once ("What online discard costs: What online discard costs was not measured" read twice).
  for (const c of r.view.cards) {
    const text = verdictCardText(c);
    assert.ok(text.endsWith(c.sentence) && text.indexOf(c.title) === text.lastIndexOf(c.title), `said once: ${text}`);
  }
  for (const row of r.view.rows)
    for (const cell of [row.before, row.after, row.crypt])
      if (cell) assert.ok(r.report.includes(cell.display), `page 1 shows ${cell.display}`);
  return sentences;
}

test('the references alone: the 2011 story on page 1, in the CLI and in the app alike', async (t) => {
  const lib = await makeLibrary(t, async (save) => {
    for (const r of await loadReferenceRuns()) save(r);
    return { before: 1, after: 2, discardOff: 4, discardOn: 5 };
  });
  const r = await renderAll(lib);
  const [speed, enc, published, trim, size] = assertSame(r);
  assert.match(speed!, /Sequential read 41\.27 MB\/s → 135\.9 MB\/s, ×3\.29 faster, spread unknown/);
  assert.match(enc!, /not known: it was not measured under dm-crypt here and no cipher ceilings/);
  assert.match(published!, /135\.9 MB\/s to 71\.5 MB\/s under dm-crypt \(−47 %\): one core decrypting at ~70 MB\/s was the ceiling/);
  assert.match(trim!, /on the published 2013 machine/);
  assert.match(size!, /was not measured/);
  assert.match(r.report, /Under dm-crypt: the published story/);
  assert.match(r.report, /#5 Intel 320 SSD \+ dm-crypt/, 'the published run is named by the report’s one numbering');
});

test('two measured disks with encryption, the discard pair and a scan: the discard verdict is the one discard-cost gives', async (t) => {
  const lib = await makeLibrary(
    t,
    (save) => ({
      before: save(disk('HDD (throttled loop)', { seq: 40e6, rnd: 150 * 4096, size: 500 * GB, cls: 'HDD' })),
      after: save(disk('new SSD (zram)', { seq: 2000e6, rnd: 60e6, size: 256 * GB, cls: 'SATA SSD' })),
      encrypted: save(disk('new SSD under dm-crypt', { seq: 900e6, rnd: 40e6, size: 256 * GB, cls: 'SATA SSD', encrypted: true })),
      // The issue's case: medians 2.750 s and 3.217 s (+0.467 s, ×1.17), the passes' ranges overlapping.
      discardOff: save(discardRun('no discard', [2.61, 2.75, 3.3])),
      discardOn: save(discardRun('discard', [2.95, 3.217, 3.4])),
      workingSet: save(scanRun(40 * GB)),
    }),
    await ceilingsOfThisCpu(500e6),
  );
  const r = await renderAll(lib);
  const [speed, enc, trim, size] = assertSame(r);
  assert.match(
    speed!,
    /^Programs will start many times faster: random 4K reads at QD1 150 IOPS → 14,648 IOPS, ×97\.7 faster\. Sequential read 40 MB\/s → 2,000 MB\/s, ×50\.0 faster/,
  );
  assert.match(enc!, /^Measured under dm-crypt on this machine: encryption costs you 55 % on sequential read here/);
  assert.match(
    trim!,
    /^Online discard costs nothing measurable per 45k-file delete here \(2\.75 s without, 3\.22 s with: within each other's range over 3 runs\)/,
  );
  assert.doesNotMatch(r.report, /0\.467/, 'page 1 never prints a cost discard-cost calls noise');
  assert.match(size!, /the 256 GB SSD holds it/);
  assert.match(r.report, /After, under dm-crypt/);
});

test('two measured disks and this CPU’s cipher ceilings: encryption forecast, drawn as estimated, the ceiling named', async (t) => {
  const lib = await makeLibrary(
    t,
    (save) => ({
      before: save(disk('HDD', { seq: 40e6, rnd: 150 * 4096, size: 500 * GB, cls: 'HDD' })),
      after: save(disk('SSD', { seq: 2000e6, rnd: 60e6, size: 256 * GB, cls: 'SATA SSD' })),
    }),
    await ceilingsOfThisCpu(500e6),
  );
  const r = await renderAll(lib);
  const [, enc, trim, size] = assertSame(r);
  assert.match(
    enc!,
    /^On this CPU dm-crypt would hold the new SSD's sequential read to about 1\.00 GB\/s \(forecast, estimated, −50 %\): the cipher runs at 1\.00 GB\/s on 2 cores, slower than the disk's 2\.00 GB\/s\./,
  );
  assert.match(r.report, /After, under dm-crypt: forecast/);
  assert.match(r.report, /\(estimated\)/);
  assert.match(trim!, /was not measured/);
  assert.match(size!, /was not measured/);
});

test('two measured disks and nothing else: encryption said unknown, never borrowed from a reference', async (t) => {
  const lib = await makeLibrary(t, async (save) => {
    for (const ref of await loadReferenceRuns()) save(ref);
    return {
      before: save(disk('HDD', { seq: 40e6, rnd: 150 * 4096, size: 500 * GB, cls: 'HDD' })),
      after: save(disk('SSD', { seq: 2000e6, rnd: 60e6, size: 256 * GB, cls: 'SATA SSD' })),
    };
  });
  // A published encrypted run set as this machine's encryption, as a library older than the
  // roles' check may hold it (the check refuses it today): never used as this machine's cost.
  const db = new DatabaseSync(lib.db);
  db.prepare('UPDATE assessments SET encrypted_run = 3 WHERE id = 1').run();
  db.close();
  const r = await renderAll(lib);
  const [, enc] = assertSame(r);
  assert.match(enc!, /What encryption costs the new SSD on this machine is not known/);
  assert.doesNotMatch(r.report, /71\.5/);
  assert.match(r.cli, /run 3 is not used as the new disk under dm-crypt: a reference's encrypted run is another machine's story/);
});

test('discard-cost says the same verdict as page 1 on the runs it keeps: the issue’s +0.467 s inside both ranges is no cost', async () => {
  const phase = (passes: number[]) => ({
    metric: 'phaseSeconds',
    subject: 'delete',
    value: [...passes].sort((a, b) => a - b)[1]!,
    unit: 's' as const,
    provenance: 'measured' as const,
    passes,
  });
  const settings = [
    {
      option: 'nodiscard' as const,
      figures: [phase([2.61, 2.75, 3.3])],
      deleteRuns: [2.61, 2.75, 3.3],
      discards: 0,
      countedOn: 'loop loop7',
    },
    {
      option: 'discard' as const,
      figures: [phase([2.95, 3.217, 3.4])],
      deleteRuns: [2.95, 3.217, 3.4],
      discards: 812,
      countedOn: 'loop loop7',
    },
  ];
  const fstrim = { seconds: 0.4, bytes: 2e9 };
  const result: DiscardCostResult = {
    files: SEED_TREE.files,
    bytes: SEED_TREE.bytes,
    settings,
    fstrim,
    verdict: costVerdict(settings, fstrim, SEED_TREE.files, 3),
    // The seed's second case (#40 item 10), kept in the same two runs: its own verdict line.
    bigfile: {
      askedBytes: 3e9,
      bytes: 3e9,
      scaled: null,
      settings: settings.map((s) => ({ ...s, discards: s.option === 'discard' ? 6 : 0 })),
      verdict: deleteCostHead(settings, '3,000 MB file delete'),
    },
    cleaned: [],
    where: { mode: 'scratch', device: '/dev/loop7', image: '/tmp/x.img', directIo: true },
    warnings: [],
  };
  const target = disk('SSD', { seq: 1, rnd: 1, size: 256 * GB, cls: 'SATA SSD' }).target;
  const records = discardCostRuns(result, {
    target,
    system: disk('SSD', { seq: 1, rnd: 1, size: 1, cls: 'SATA SSD' }).system!,
    version: '0.1.0',
    createdAt: '2026-12-01T10:00:00.000Z',
  });
  const verdict = trimCostVerdict(records[0]!, records[1]!);
  assert.equal(verdict.state, 'within-noise');
  const text = discardCostText(result, records);
  assert.ok(text.includes(`Verdict: ${verdict.sentence}`), text);
  // What discard-cost stores with the runs (sourceMeta.verdict) opens with the same judgement.
  assert.ok(result.verdict.startsWith(verdict.sentence.replace(/^O/, 'o').replace(/; a fstrim afterwards.*$/, '')), result.verdict);
  assert.doesNotMatch(text, /Verdict: [^\n]*0\.467/);
});

test('a new disk within the old one’s spread: programs will not start measurably faster, said as English', () => {
  const before = disk('old', { seq: 40e6, rnd: 150 * 4096, size: 500 * GB, cls: 'HDD' });
  const after = disk('new', { seq: 2e9, rnd: 150 * 4096, size: 250 * GB, cls: 'SATA SSD' });
  // The lab's loaded run: 642 IOPS ±10,405 % against 148.8 IOPS read "Programs will start no measurably faster".
  after.results[2] = rate('rnd4k-q1t1-read', 'randread', 4096, 1, 600 * 4096, 0.95);
  const sentence = speedUpVerdict(before, after).sentence;
  assert.match(sentence, /^Programs will not start measurably faster: random 4K reads at QD1 150(\.0)? IOPS → /);
  assert.match(sentence, /no measurable change, ×4\.\d+ within the runs' spread/);
  after.results[2] = rate('rnd4k-q1t1-read', 'randread', 4096, 1, 15000 * 4096);
  assert.match(speedUpVerdict(before, after).sentence, /^Programs will start many times faster: /);
  after.results[2] = rate('rnd4k-q1t1-read', 'randread', 4096, 1, 50 * 4096);
  assert.match(speedUpVerdict(before, after).sentence, /^Programs will start slower: /);
});
