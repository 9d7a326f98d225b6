// Issue 38, item 16: a 200-character label with no space ran off the PDF's right margin. A
// run's name, its machine note, its notes and a fleet host are printed as the user or a file
// wrote them; each must break inside the page's text width. Printed by the real printer
// (Chromium) and read back with pdftotext -bbox: every word of every page lies between the
// page's left and right margins (report-css.ts: 13 mm each).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareFleet } from '../analysis/fleet-compare.ts';
import { parseFioFile } from '../../node/formats/fio-client-json.ts';
import { loadReferenceRuns } from '../../node/formats/reference.ts';
import { chromiumPrinter, findChromium } from '../../node/report/chromium-printer.ts';
import { buildFleetReport } from './fleet-report-model.ts';
import { buildReport } from './report-model.ts';
import { renderReportHtml } from './report-html.ts';

const skip = !findChromium()
  ? 'no Chromium here (Debian package "chromium"): the PDF cannot be printed'
  : spawnSync('pdftotext', ['-v']).error !== undefined
    ? 'no pdftotext here (Debian package "poppler-utils"): the PDF cannot be read back'
    : false;

/** 13 mm, the report's left and right page margins, in PDF points. */
const MARGIN_PT = (13 / 25.4) * 72;
/** Rounding of pdftotext's boxes and of a glyph's side bearing. */
const SLACK_PT = 1.5;

const LONG = (start: string) => `${start}${'x'.repeat(200 - start.length)}`;
const generatedAt = new Date('2026-12-01T10:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'diskdelta-long-labels-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Word {
  page: number;
  text: string;
  xMin: number;
  xMax: number;
  pageWidth: number;
}

async function printedWords(html: string, name: string): Promise<Word[]> {
  const printer = chromiumPrinter();
  try {
    const pdf = join(dir, `${name}.pdf`);
    writeFileSync(pdf, await printer.print(html));
    const bbox = join(dir, `${name}.html`);
    execFileSync('pdftotext', ['-bbox', pdf, bbox], { timeout: 60_000 });
    const words: Word[] = [];
    readFileSync(bbox, 'utf8')
      .split('<page ')
      .slice(1)
      .forEach((page, i) => {
        const pageWidth = Number(/width="([\d.]+)"/.exec(page)![1]);
        for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g))
          words.push({ page: i + 1, text: m[3]!, xMin: Number(m[1]), xMax: Number(m[2]), pageWidth });
      });
    return words;
  } finally {
    await printer.close?.();
  }
}

function assertInsideMargins(words: Word[], expect: string) {
  // The whole label is printed (broken over lines, not cut off): its pieces follow its start.
  const start = words.findIndex((w) => w.text.startsWith(expect));
  assert.ok(start >= 0, `the label's start "${expect}" is printed: ${words.length} words`);
  let printed = words[start]!.text;
  for (const w of words.slice(start + 1)) {
    if (!/^x+$/.test(w.text) || printed.length >= 200) break;
    printed += w.text;
  }
  assert.equal(printed, LONG(expect), 'the whole label, in pieces that follow each other');
  const outside = words.filter((w) => w.xMin < MARGIN_PT - SLACK_PT || w.xMax > w.pageWidth - MARGIN_PT + SLACK_PT);
  assert.deepEqual(
    outside.map((w) => `page ${w.page}: "${w.text.slice(0, 30)}…" ${w.xMin.toFixed(1)}–${w.xMax.toFixed(1)} pt of ${w.pageWidth}`),
    [],
    `every word between the margins (${MARGIN_PT.toFixed(1)} pt each)`,
  );
}

describe('a 200-character label without a space stays inside the PDF page', { skip }, () => {
  it('a run’s name, notes and machine note in the report of runs', async () => {
    const runs = (await loadReferenceRuns()).slice(0, 3);
    runs[1] = {
      ...runs[1]!,
      label: LONG('RUNNAME'),
      notes: LONG('NOTES'),
      sourceMeta: { ...runs[1]!.sourceMeta, machine: LONG('MACHINE') },
    };
    const words = await printedWords(renderReportHtml(buildReport(runs, { generatedAt })), 'runs');
    assertInsideMargins(words, 'RUNNAME');
    assert.ok(words.some((w) => w.text.startsWith('NOTES')) && words.some((w) => w.text.startsWith('MACHINE')));
  });

  it('a host’s name in the fleet report', async () => {
    const fixture = join(import.meta.dirname, '../../node/formats/fixtures/fio-3.33-client-5-throttled-hosts.json');
    const runs = parseFioFile(readFileSync(fixture, 'utf8'), 'fleet.json', generatedAt);
    const host = LONG('HOSTNAME');
    const renamed = runs.map((r, i) => (i === 0 ? { ...r, label: host, sourceMeta: { ...r.sourceMeta, 'fio.host': host } } : r));
    const doc = buildFleetReport(compareFleet(renamed), { generatedAt });
    assert.ok(
      doc.hosts.some((row) => row.host === host),
      'the long host is a row',
    );
    assertInsideMargins(await printedWords(renderReportHtml(doc), 'fleet'), 'HOSTNAME');
  });
});
