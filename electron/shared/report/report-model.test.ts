// The report's document and its self-contained HTML: what a reader gets, checked on the
// shipped reference runs and on runs built to hit each rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import type { RunRecord } from '../model/results.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import { renderReportHtml, REPORT_CSP } from './report-html.ts';
import { barsOf } from '../charts/chart-model.ts';
import { buildReport, ReportInputError } from './report-model.ts';
import { MAX_REPORT_RUNS } from './paper.ts';
import { wholeSpansAsText } from './whole-text.ts';

const reference = (await loadReferenceRuns()).slice(0, 3);
const at = new Date('2026-11-30T07:00:00Z');
const fastCpu: CipherCeilings = {
  source: 'kernel',
  sourceLabel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
  backend: 'af_alg',
  cpus: 4,
  cpu: { model: 'Test CPU', aesNi: true, vaes: false, flags: ['aes'] },
  figures: [1, 4].map((threads) => ({
    cipher: 'aes-xts-plain64',
    keyBits: 512,
    kernelName: 'xts(aes)',
    sectorBytes: 65536,
    threads,
    encryptBps: threads * 1.1e9,
    decryptBps: threads * 1.1e9,
  })),
  unavailable: [],
  warnings: [],
  measuredAt: '2026-11-30T06:00:00.000Z',
  windowSeconds: 0.2,
  rounds: 5,
};

function measured(label: string, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    label,
    notes: '',
    createdAt: '2026-11-29T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt', kind: 'folder' },
    system: {
      kernel: '6.1.0-28-amd64',
      cpuModel: 'AMD EPYC',
      cores: 2,
      threads: 2,
      cryptoFlags: ['aes', 'vaes'],
      memoryBytes: 24 * 2 ** 30,
    },
    settings: { preset: 'quick', sizeBytes: 64 * 2 ** 20, durationSec: 1.5, warmupSec: 0.5, runs: 3 },
    engine: { name: 'diskdelta', version: '0.1.0', ioEngine: 'aio' },
    results: [
      {
        test: 'seq1m-q8t1-read',
        params: { rw: 'read', blockSize: 1 << 20, queueDepth: 8, threads: 1 },
        bytesPerSec: 400e6,
        iops: 381,
        latencyNs: null,
        best: null,
        cv: 0.021,
        runs: [],
        histogram: [],
        cpu: null,
        underResolved: false,
        warnings: [{ code: 'noisy', message: 'spread 21 %' }],
      },
      {
        test: 'rnd4k-q32t1-read',
        params: { rw: 'randread', blockSize: 4096, queueDepth: 32, threads: 1 },
        bytesPerSec: 80e6,
        iops: 19531,
        latencyNs: null,
        best: null,
        cv: null,
        runs: [],
        histogram: [],
        cpu: null,
        underResolved: false,
        warnings: [],
      },
    ],
    extras: [],
    warnings: [],
    ...extra,
  };
}

describe('buildReport', () => {
  it('refuses no runs and more runs than the table lays out, saying what to do', () => {
    assert.throws(() => buildReport([], { generatedAt: at }), ReportInputError);
    const many = Array.from({ length: MAX_REPORT_RUNS + 1 }, (_, i) => measured(`r${i}`));
    assert.throws(() => buildReport(many, { generatedAt: at }), /at most 6 runs side by side; 7 were given: pick/);
    assert.equal(buildReport(many.slice(0, MAX_REPORT_RUNS), { generatedAt: at }).runs.length, MAX_REPORT_RUNS);
  });

  it('marks reference runs and carries the machine as the source describes it', () => {
    const doc = buildReport(reference, { generatedAt: at });
    assert.deepEqual(
      doc.runs.map((r) => r.source),
      ['reference', 'reference', 'reference'],
    );
    assert.match(doc.runs[0]!.sourceText, /not measured on this machine/);
    assert.match(doc.runs[0]!.machineNote!, /ThinkPad X201i/);
    assert.equal(doc.runs[0]!.machine, null);
    assert.deepEqual(
      doc.summary.map((s) => s.id),
      ['upgrade', 'encryption'],
    );
  });

  it('gives a measured run its machine, AES in hardware, method and O_DIRECT', () => {
    const doc = buildReport([measured('old'), measured('new')], { generatedAt: at, paper: 'letter' });
    const run = doc.runs[0]!;
    assert.deepEqual(run.machine, {
      cpu: 'AMD EPYC, 2 cores / 2 threads',
      aes: 'yes (aes, vaes)',
      memory: '24 GiB',
      kernel: '6.1.0-28-amd64',
    });
    assert.equal(run.method.io, 'O_DIRECT (bypasses the page cache)');
    assert.equal(run.method.timing, 'preset quick, 0.5 s warm-up, 3 timed windows of 1.5 s asked for, median shown');
    assert.equal(run.method.sizes, 'test file 64 MiB');
    assert.equal(run.method.engine, 'diskdelta 0.1.0 (aio I/O engine)');
    assert.equal(doc.paper, 'letter');
    const noAes = buildReport(
      [measured('x', { system: { kernel: null, cpuModel: 'Core 2', cores: 2, cryptoFlags: [], memoryBytes: null } })],
      { generatedAt: at },
    );
    assert.match(noAes.runs[0]!.machine!.aes, /^no: dm-crypt would run its cipher in software/);
  });

  it('charts throughput for sequential tests and IOPS for random ones, and keeps every row in the table with its spread', () => {
    const doc = buildReport([measured('old'), measured('new')], { generatedAt: at });
    assert.deepEqual(
      doc.charts.map((c) => [c.id, c.unitLabel, barsOf(c).length]),
      [
        ['throughput', 'MB/s', 2],
        ['iops', 'IOPS', 2],
      ],
    );
    assert.deepEqual(
      barsOf(doc.charts[0]!).map((b) => b.value),
      [400, 400],
    );
    const rows = doc.comparison.rows.map((r) => `${r.test}:${r.metric}`);
    assert.deepEqual(rows, ['seq1m-q8t1-read:bytesPerSec', 'rnd4k-q32t1-read:bytesPerSec', 'rnd4k-q32t1-read:iops']);
    assert.deepEqual(doc.spreads[0], ['CV 2.1 %', 'CV 2.1 %']);
    assert.deepEqual(doc.spreads[1], [null, null]);
  });

  it('lists a warning several runs share once, with every run that has it', () => {
    const doc = buildReport([measured('old'), measured('new')], { generatedAt: at });
    assert.deepEqual(
      doc.warnings.map((w) => [w.code, w.tests, w.runIndexes]),
      [['noisy', ['seq1m-q8t1-read'], [0, 1]]],
    );
  });
});

describe('what was measured, as it ran', () => {
  const stackOn = (loop: boolean): RunRecord['target'] => ({
    path: '/mnt',
    kind: 'folder',
    device: { name: 'vda', model: null, class: 'virtual', sizeBytes: 256 * 2 ** 30, linkDescription: null } as never,
    stack: [
      { kind: 'mount', name: '/mnt', details: { fsType: 'ext4', onlineDiscard: 'off' } },
      ...(loop
        ? [
            {
              kind: 'loop' as const,
              name: 'loop3',
              details: {
                backingFile: '/tmp/lab/hdd.img',
                directIo: false,
                throttleGroup: '/dd-hdd-1',
                throttleReadBps: 40e6,
                throttleReadIops: 150,
                throttleWriteBps: 40e6,
                throttleWriteIops: 150,
                throttleGroups: 1,
              },
            },
          ]
        : []),
      {
        kind: 'disk',
        name: 'vda',
        details: { class: 'virtual', transport: 'virtio', sizeBytes: 256 * 2 ** 30 },
        linkCeilingBytesPerSec: null,
      },
    ],
  });

  it('the throttled loop and the plain disk are named apart, not both "vda"', () => {
    const doc = buildReport([measured('hdd', { target: stackOn(true) }), measured('ssd', { target: stackOn(false) })], { generatedAt: at });
    assert.equal(
      doc.runs[0]!.disk,
      'loop3 (file /tmp/lab/hdd.img) on vda (virtual, 256 GiB); loop3 throttled: read 40 MB/s, 150 IOPS; write 40 MB/s, 150 IOPS (blkio group /dd-hdd-1)',
    );
    assert.equal(doc.runs[1]!.disk, 'vda (virtual, 256 GiB)');
    assert.match(
      doc.runs[0]!.stack.join('\n'),
      /loop +loop3 +backing file \/tmp\/lab\/hdd\.img +direct I\/O: no +throttled: read 40 MB\/s/,
    );
    assert.doesNotMatch(doc.runs[1]!.stack.join('\n'), /\?/, 'no "?" for what is unknown');
    assert.match(renderReportHtml(doc), /<dt>Measured<\/dt><dd>loop3 \(file \/tmp\/lab\/hdd\.img\) on vda/);
  });

  it("the drive's temperature is on its run card (before, at most, after, the drive's limits), or why it was not read; an import has none", () => {
    const hot = measured('nvme', {
      temperature: {
        disk: 'nvme0n1',
        sensor: 'nvme',
        label: 'Composite',
        beforeC: 38.85,
        afterC: 47,
        peakC: 52.85,
        maxC: 81.85,
        critC: 84.85,
        readings: [
          { tSec: 0, celsius: 38.85 },
          { tSec: 2, celsius: 52.85, test: 'seq1m-q8t1-write' },
          { tSec: 4, celsius: 47 },
        ],
      },
    });
    const none = measured('loop', {
      temperature: { disk: 'loop0', sensor: null, reason: 'loop0: the kernel exposes no temperature for this kind of device' },
    });
    const doc = buildReport([hot, none, reference[0]!], { generatedAt: at });
    assert.equal(
      doc.runs[0]!.temperature,
      'nvme0n1 (NVMe Composite): 38.85 °C before, 52.85 °C at most, 47 °C after; its warning 81.85 °C, critical 84.85 °C; 3 readings',
    );
    assert.equal(doc.runs[1]!.temperature, 'not read: loop0: the kernel exposes no temperature for this kind of device');
    assert.equal(doc.runs[2]!.temperature, null);
    const html = renderReportHtml(doc);
    assert.match(html, /<dt>Drive temperature<\/dt><dd>nvme0n1 \(NVMe Composite\): 38\.85 °C before/);
    assert.equal(html.match(/<dt>Drive temperature<\/dt>/g)?.length, 2);
  });

  it('the method says how each test really ran (runs, seconds), not only what was asked ("5 × 0.2 s")', () => {
    const window = (run: number) => ({
      run,
      bytesPerSec: 400e6,
      iops: 381,
      latencyNs: { mean: null, p50: null, p90: null, p99: null, p999: null, max: null },
      elapsedNs: 2e8,
      ios: 76,
      bytes: 8e7,
      cpu: { userNs: 0, systemNs: 0 },
      samples: [],
    });
    const base = measured('ssd');
    const run = {
      ...base,
      settings: { preset: 'quick', durationSec: 0.2, warmupSec: 0.5, runs: 5 },
      results: base.results.map((r, i) => ({
        ...r,
        runs: [1, 2, 3, 4, 5].slice(0, i === 0 ? 5 : 3).map(window),
        precision: { ciRelative: 0.02, target: 0, seconds: i === 0 ? 5.9 : 2.1, stoppedBy: 'runs' as const },
      })),
    };
    const doc = buildReport([run], { generatedAt: at });
    assert.equal(
      doc.runs[0]!.method.timing,
      'preset quick, 0.5 s warm-up, 5 timed windows of 0.2 s asked for, as run: 3–5 runs, 2.1–5.9 s per test, median shown',
    );
    assert.equal(doc.runs[0]!.method.tests[0]!.ran, '5 runs, 5.9 s, stopped: fixed count');
    assert.match(renderReportHtml(doc), /<code>seq1m-q8t1-read<\/code> [^<]*\(5 runs, 5\.9 s, stopped: fixed count\)/);
  });
});

describe('renderReportHtml', () => {
  const html = renderReportHtml(buildReport(reference, { generatedAt: at }));

  it('is one file that can load nothing: no script, no external reference, a CSP that forbids any', () => {
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /\b(src|href)=/i);
    assert.doesNotMatch(html, /url\(/i);
    assert.ok(html.includes(`content="${REPORT_CSP}"`));
    assert.match(REPORT_CSP, /^default-src 'none'/);
  });

  it('holds every section, every chart as inline SVG, and the seed figures', () => {
    for (const id of ['summary', 'runs', 'charts', 'figures', 'warnings', 'method'])
      assert.ok(html.includes(`data-testid="report-${id}"`), id);
    assert.equal(html.match(/<svg /g)?.length, 2);
    // Each run against #1 (×1.73 for the SSD through dm-crypt against the hard disk), never against the run picked before it.
    for (const figure of ['×3.29', '×1.73', '×69.5']) assert.ok(html.includes(figure), figure);
    for (const run of reference) assert.ok(html.includes(run.label.replace(/&/g, '&amp;')), run.label);
  });

  it('tells the 2011 story of encryption in the summary, and draws HDD / SSD / SSD + dm-crypt with forecasts marked estimated', () => {
    const doc = buildReport(reference, { generatedAt: at, ceilings: fastCpu });
    const summary = doc.summary.find((s) => s.id === 'encryption');
    assert.ok(summary, 'an encryption summary');
    assert.match(
      summary.paragraphs[0]!,
      /fell from 135\.9 MB\/s to 71\.5 MB\/s \(−47 %\) under dm-crypt: one core decrypting at ~70 MB\/s was the ceiling/,
    );
    // The summary's encryption part comes right after what changed: on the first page.
    assert.deepEqual(doc.summary.map((s) => s.id).slice(0, 2), ['upgrade', 'encryption']);
    const text = renderReportHtml(doc);
    assert.ok(text.includes('data-testid="report-encryption"'));
    for (const heading of ['HDD', 'SSD', 'SSD + dm-crypt']) assert.ok(text.includes(`</span> ${heading}</th>`), heading);
    assert.equal(text.match(/class="forecast" data-testid="enc-forecast"/g)?.length, 2, 'two unencrypted runs forecast');
    // The figure is kept on one line (report/whole-text.ts): read past its span.
    assert.match(wholeSpansAsText(text), /135\.9 MB\/s <em>estimated<\/em>/);
    // Without ceilings the measured pair still tells the story and says how to add forecasts.
    const bare = renderReportHtml(buildReport(reference, { generatedAt: at }));
    assert.match(bare, /one core decrypting at ~70 MB\/s was the ceiling/);
    assert.match(bare, /No cipher ceilings of this CPU are kept/);
  });

  it('never hides a section until scrolled to (the Compare page does; a printout must not)', () => {
    assert.doesNotMatch(html, /content-visibility/);
  });

  it('escapes labels: a run named like markup stays text', () => {
    const evil = buildReport([measured('<img src=x onerror=alert(1)>'), measured('b')], { generatedAt: at });
    const text = renderReportHtml(evil);
    assert.doesNotMatch(text, /<img/);
    assert.ok(text.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });

  it('sets the paper size on the page itself, with page numbers', () => {
    assert.match(html, /@page \{\s*size: A4 portrait/);
    assert.match(renderReportHtml(buildReport(reference, { generatedAt: at, paper: 'letter' })), /size: letter portrait/);
    assert.match(html, /counter\(page\) " of " counter\(pages\)/);
  });
});
