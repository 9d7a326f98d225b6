// Compare's encryption chart drawn in jsdom: a run's name under its bars stays inside its band
// (a 200-character name without a space ran under its neighbours'), measured and forecast bars
// apart, the cipher's ceiling a labelled line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { TICK_CHAR_PX } from '../../../electron/shared/charts/axis-ticks.ts';
import type { EncryptionView } from '../view/encryption-view.ts';
import { draw } from './dom.ts';
import { EncryptionChart } from './encryption-chart.ts';

const LONG = `HOST${'x'.repeat(196)}`;
const view: EncryptionView = {
  test: 'seq1m-q8t1-read',
  write: false,
  rows: [
    { label: LONG, runIndex: 0, encrypted: false, measured: 41, forecast: 40 },
    { label: 'Intel 320 SSD', runIndex: 1, encrypted: false, measured: 136, forecast: 130 },
    { label: 'Intel 320 SSD + dm-crypt', runIndex: 2, encrypted: true, measured: 71, forecast: null },
  ],
  cipherLine: 2128,
  cipherLineOneCore: 2126,
  sourceLabel: null,
  accuracy: null,
};

test('a 200-character run name under its bars stays in its band, in two lines; bars and the ceiling drawn', async () => {
  const width = 600;
  const app = await draw(h(EncryptionChart, { view, unitLabel: 'MB/s', logScale: true }), { width });
  try {
    const svg = app.container.querySelector('svg.encryption-chart')!;
    assert.equal(svg.querySelectorAll('[data-testid="enc-measured"]').length, 3);
    assert.equal(svg.querySelectorAll('[data-testid="enc-forecast"]').length, 2);
    assert.match(svg.querySelector('[data-testid="enc-ceiling"]')!.textContent!, /cipher ceiling 2,128 MB\/s/);
    const names = [...svg.querySelectorAll('text')].filter((t) => t.querySelector('tspan'));
    assert.equal(names.length, 3, 'a name under each run');
    const band = (width - 24 - 60) / 3;
    const long = names[0]!;
    const lines = [...long.querySelectorAll('tspan')].map((t) => t.textContent!);
    assert.ok(lines.length <= 2 && lines.join(' ').startsWith('#1 HOST'), lines.join(' | '));
    for (const line of lines) assert.ok(line.length * TICK_CHAR_PX <= band, `"${line}" (${line.length} characters) fits a ${band} px band`);
    assert.ok(
      svg.querySelector('rect[data-testid="enc-measured"] title')!.textContent!.includes(LONG),
      'the whole name in the bar’s title',
    );
  } finally {
    await app.unmount();
  }
});
