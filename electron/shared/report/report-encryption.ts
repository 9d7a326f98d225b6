// The report's encryption section: HDD / SSD / SSD + dm-crypt as columns, each run's own figure
// (measured, imported or published) and each unencrypted run's forecast under dm-crypt on this
// CPU, the forecast drawn hatched, dashed and labelled "estimated" so it can never be read as a
// measurement; the ceiling that holds under each; the cipher measurement it rests on, with its
// flags. Its sentences (analysis/encryption-story.ts, as `compare` prints them) open the summary.
import { unbrokenLabel } from '../model/whole-tokens.ts';
import { createElement as h, type ReactElement } from 'react';
import { wholeText } from './whole-text.ts';
import type { EncryptionStory, StoryColumn } from './report-model.ts';
import { Swatch } from './report-chart.ts';
import type { RunSource } from '../model/figure-terms.ts';
import { FORECAST_ACCURACY_SENTENCE } from '../analysis/encryption.ts';
import { groupedDecimals } from '../analysis/units.ts';

const mb = (bps: number) => `${groupedDecimals(bps / 1e6, 1)} MB/s`;
// One word per run source (figure-terms.ts RUN_SOURCES): a source added there fails the type check here.
const SOURCE_WORD: Readonly<Record<RunSource, string>> = { measured: 'measured', imported: 'imported', reference: 'published' };

function ceilingText(c: StoryColumn): string {
  if (!c.ceiling) return '—';
  return c.ceiling === 'cipher' ? 'the cipher' : 'the disk';
}

export function EncryptionSection({ story }: { story: EncryptionStory }): ReactElement {
  const k = story.cipher;
  // Each figure's run, above it where the table is laid out a row per block (a phone's width: report-css.ts).
  const label = (c: EncryptionStory['columns'][number]) => unbrokenLabel(`#${c.runIndex + 1} ${c.heading}`);
  return h(
    'section',
    { className: 'report-section section-encryption', 'aria-labelledby': 'encryption-h', 'data-testid': 'report-encryption' },
    h('h2', { id: 'encryption-h' }, `Encryption: ${story.testWords} under dm-crypt`),
    h(
      'table',
      { className: 'figures encryption', role: 'table' },
      h(
        'thead',
        { role: 'rowgroup' },
        h(
          'tr',
          { role: 'row' },
          h('th', { scope: 'col', role: 'columnheader' }, ''),
          ...story.columns.map((c) =>
            h('th', { scope: 'col', role: 'columnheader', key: c.runIndex }, h(Swatch, { index: c.runIndex }), ` ${c.heading}`),
          ),
        ),
      ),
      h(
        'tbody',
        { role: 'rowgroup' },
        h(
          'tr',
          { role: 'row' },
          h('th', { scope: 'row', role: 'rowheader' }, 'As run'),
          ...story.columns.map((c) =>
            h(
              'td',
              { key: c.runIndex, className: 'value', role: 'cell', 'data-label': label(c) },
              c.measured === null ? '—' : wholeText(`${mb(c.measured)} ${SOURCE_WORD[c.source]}${c.encrypted ? ' with dm-crypt' : ''}`),
            ),
          ),
        ),
        h(
          'tr',
          { role: 'row' },
          h('th', { scope: 'row', role: 'rowheader' }, wholeText('Under dm-crypt on this CPU')),
          ...story.columns.map((c) =>
            c.forecast
              ? h(
                  'td',
                  { key: c.runIndex, className: 'forecast', 'data-testid': 'enc-forecast', role: 'cell', 'data-label': label(c) },
                  wholeText(mb(c.forecast.estimatedBytesPerSec)),
                  ' ',
                  h('em', null, 'estimated'),
                )
              : h(
                  'td',
                  { key: c.runIndex, className: 'muted', role: 'cell', 'data-label': label(c) },
                  c.encrypted ? 'measured above' : k ? '—' : 'no cipher ceiling kept',
                ),
          ),
        ),
        h(
          'tr',
          { role: 'row' },
          h('th', { scope: 'row', role: 'rowheader' }, 'Ceiling that holds'),
          ...story.columns.map((c) => h('td', { key: c.runIndex, role: 'cell', 'data-label': label(c) }, ceilingText(c))),
        ),
      ),
    ),
    k
      ? h(
          'p',
          { className: k.estimate || k.warnings.length ? 'muted flagged' : 'muted' },
          `Cipher ceiling of this CPU (${k.cipher} ${k.keyBits} bit): ${mb(k.oneCore)} on one core, ${mb(k.allCores)} on ${k.cpus}; ` +
            `median of ${k.rounds} rounds measured ${k.measuredAt.slice(0, 16).replace('T', ' ')} UTC on ${k.cpuModel ?? 'an unknown CPU'}` +
            `${k.kernel ? `, kernel ${k.kernel}` : ''}, with the ${k.sourceLabel}.`,
        )
      : null,
    k && k.warnings.length > 0 ? h('ul', { className: 'warnings flagged' }, ...k.warnings.map((w, i) => h('li', { key: i }, w))) : null,
    // The sentences themselves are the summary's "What encryption costs", on the first page.
    h(
      'p',
      { className: 'muted' },
      `Hatched, dashed cells are estimated from the cipher ceiling (the forecast model of dm-crypt), never measured.${story.columns.some((c) => c.forecast) ? ` ${FORECAST_ACCURACY_SENTENCE}` : ''}`,
    ),
  );
}
