// Page 1's sentences and cells keep each figure on one line with its unit (whole-text.ts, the
// one mechanism the app's tables use too).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement as h } from 'react';
import { FirstPageView, type FirstPage } from './first-page.ts';
import { wholeSpansAsText, wholeText } from './whole-text.ts';

const markup = (text: string) => renderToStaticMarkup(h('p', null, wholeText(text)));
const W = (t: string) => `<span style="white-space:nowrap">${t}</span>`;

test('each number and its unit become one unbreakable span; the text is unchanged', () => {
  const text = 'random 4K reads at QD1 149.2 IOPS → 11,966 IOPS ±1,014 % (noisy), ×80.2 faster; seeks 150.0 seeks/s ±42 % (noisy)';
  assert.equal(
    markup(text),
    `<p>random 4K reads at QD1 ${W('149.2 IOPS')} → ${W('11,966 IOPS')} ` +
      `${W('±1,014 %')} (noisy), ×80.2 faster; seeks ${W('150.0 seeks/s')} ` +
      `${W('±42 %')} (noisy)</p>`,
  );
  assert.equal(wholeSpansAsText(markup(text)), `<p>${text}</p>`);
});

test('the other units the verdicts say: rates, sizes, seconds, signed percents; words after a number are left alone', () => {
  assert.equal(
    markup('from 135.9 MB/s to 71.5 MB/s (−47 %), +0.467 s per tree delete, 4.1 MB of 1.2 GiB, 2 cores, 3 seekers, 90-day'),
    `<p>from ${W('135.9 MB/s')} to ${W('71.5 MB/s')} (${W('−47 %')}), ` +
      `${W('+0.467 s')} per tree delete, ${W('4.1 MB')} of ${W('1.2 GiB')}, ` +
      `2 cores, 3 seekers, ${W('90-day')}</p>`,
  );
});

test('page 1 renders its sentences and figures that way, and its CSS keeps a figure on one line', () => {
  const page: FirstPage = {
    title: 'Upgrade assessment: x',
    columns: [
      { heading: 'Before', run: '#1 HDD', kind: 'measured' },
      { heading: 'After', run: '#2 SSD', kind: 'measured' },
      { heading: 'After, under dm-crypt', run: 'not measured', kind: 'missing' },
    ],
    rows: [
      {
        slot: 'rnd-read',
        title: 'Random 4K read, QD1',
        cells: [
          { test: 'rnd4k-q1t1-read', metric: 'iops', value: 149.2, display: '149.2 IOPS', flags: [], estimated: false },
          {
            test: 'rnd4k-q1t1-read',
            metric: 'iops',
            value: 11966,
            display: '11,966 IOPS ±1,014 % (noisy)',
            flags: ['noisy'],
            estimated: false,
          },
          null,
        ],
        change: '×80.2',
      },
    ],
    sentences: [{ id: 'speed', text: 'random 4K reads at QD1 149.2 IOPS → 11,966 IOPS ±1,014 % (noisy), ×80.2 faster' }],
    flagNote: null,
    ignored: [],
  };
  const html = renderToStaticMarkup(h(FirstPageView, { page }));
  const nowrap = (t: string) => `<span style="white-space:nowrap">${t}</span>`;
  assert.ok(html.includes(`>random 4K reads at QD1 ${nowrap('149.2 IOPS')}`), html);
  assert.ok(html.includes(`${nowrap('11,966 IOPS')} ${nowrap('±1,014 %')} (noisy)<span class="flag"`), html);
  // The ⚑ mark is held to its figure by a no-break space: never alone on a cell's last line.
  assert.match(html, /\(noisy\)<span class="flag" title="noisy">\u00a0⚑<\/span>/);
});
