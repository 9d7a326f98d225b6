// Page 1's sentences and cells keep each figure on one line with its unit (kept-figures.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement as h } from 'react';
import { FIRST_PAGE_CSS, FirstPageView, type FirstPage } from './first-page.ts';
import { keepFiguresTogether } from './kept-figures.ts';

const markup = (text: string) => renderToStaticMarkup(h('p', null, ...keepFiguresTogether(text)));

test('each number and its unit become one unbreakable span; the text is unchanged', () => {
  const text = 'random 4K reads at QD1 149.2 IOPS → 11,966 IOPS ±1,014 % (noisy), ×80.2 faster; seeks 150.0 seeks/s ±42 % (noisy)';
  assert.equal(
    markup(text),
    '<p>random 4K reads at QD1 <span class="figure">149.2 IOPS</span> → <span class="figure">11,966 IOPS</span> ' +
      '<span class="figure">±1,014 %</span> (noisy), ×80.2 faster; seeks <span class="figure">150.0 seeks/s</span> ' +
      '<span class="figure">±42 %</span> (noisy)</p>',
  );
  assert.equal(
    keepFiguresTogether(text)
      .map((n) => (typeof n === 'string' ? n : (n as { props: { children: string } }).props.children))
      .join(''),
    text,
  );
});

test('the other units the verdicts say: rates, sizes, seconds, signed percents; words after a number are left alone', () => {
  assert.equal(
    markup('from 135.9 MB/s to 71.5 MB/s (−47 %), +0.467 s per tree delete, 4.1 MB of 1.2 GiB, 2 cores, 3 seekers, 90-day'),
    '<p>from <span class="figure">135.9 MB/s</span> to <span class="figure">71.5 MB/s</span> (<span class="figure">−47 %</span>), ' +
      '<span class="figure">+0.467 s</span> per tree delete, <span class="figure">4.1 MB</span> of <span class="figure">1.2 GiB</span>, ' +
      '2 cores, 3 seekers, 90-day</p>',
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
  assert.match(html, /<p data-testid="verdict-speed"[^>]*>random 4K reads at QD1 <span class="figure">149\.2 IOPS<\/span>/);
  assert.match(html, /<span class="figure">11,966 IOPS<\/span> <span class="figure">±1,014 %<\/span> \(noisy\)<span class="flag"/);
  // The ⚑ mark is held to its figure by a no-break space: never alone on a cell's last line.
  assert.match(html, /\(noisy\)<span class="flag" title="noisy">\u00a0⚑<\/span>/);
  assert.match(FIRST_PAGE_CSS, /\.report \.first-page \.figure \{ white-space: nowrap; \}/);
});
