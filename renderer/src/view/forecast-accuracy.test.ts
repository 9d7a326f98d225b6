// Every place that prints a dm-crypt forecast says how close the forecast came in the lab
// (FORECAST_ACCURACY_SENTENCE, from the measured constant in analysis/encryption.ts): the CLI's
// `encryption` report, `compare`'s encryption story (also the report's summary), the report's
// encryption section, and the app's Compare encryption legend. Where nothing is forecast, none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseDiskDeltaJson } from '../../../electron/node/formats/diskdelta-json.ts';
import { formatEncryptionReport } from '../../../electron/cli/encryption-text.ts';
import type { EncryptionReport } from '../../../electron/node/crypto/encryption-run.ts';
import {
  cipherRates,
  FORECAST_ACCURACY_SENTENCE,
  FORECAST_LAB_ACCURACY_PERCENT,
  forecastRun,
} from '../../../electron/shared/analysis/encryption.ts';
import { encryptionStory, encryptionStoryText } from '../../../electron/shared/analysis/encryption-story.ts';
import { syntheticCeilings } from '../../../electron/shared/model/cipher-fixtures.ts';
import { EncryptionSection } from '../../../electron/shared/report/report-encryption.ts';
import { EncryptionLegend } from '../charts/encryption-chart.ts';
import { buildEncryptionView } from './encryption-view.ts';

const seed = () =>
  parseDiskDeltaJson(
    readFileSync(new URL('../../../assets/reference/2011-thinkpad-x201i-bonnie.json', import.meta.url), 'utf8'),
    '2011-thinkpad-x201i-bonnie.json',
  );

const ceilings = syntheticCeilings({ oneCoreBps: 60e6 });

test(`the sentence says the lab's measured accuracy: within ±${FORECAST_LAB_ACCURACY_PERCENT} %`, () => {
  assert.match(FORECAST_ACCURACY_SENTENCE, new RegExp(`within ±${FORECAST_LAB_ACCURACY_PERCENT} % in the lab \\(npm run bench:dm-crypt`));
});

test('the CLI encryption report: beside its forecasts, and not without any', () => {
  const runs = seed();
  const rates = cipherRates(ceilings)!;
  const raw = runs[1]!;
  const forecast = forecastRun(raw, rates);
  assert.ok(forecast.length > 0);
  const report = {
    mode: 'throwaway',
    setup: { cipher: 'aes-xts-plain64', keyBits: 512, sectorBytes: 512, flags: [] },
    ceilings,
    rates,
    raw,
    encrypted: runs[2]!,
    encryptedWrites: null,
    verdict: forecast.map((f) => ({
      test: f.test,
      rawBytesPerSec: f.rawBytesPerSec,
      encryptedBytesPerSec: f.estimatedBytesPerSec,
      cipherBytesPerSec: f.cipherBytesPerSec,
      linkBytesPerSec: null,
      ceiling: f.ceiling,
      costPercent: f.costPercent,
      sentence: 'a sentence',
    })),
    forecast,
    cipherDrift: null,
    cleaned: [],
    notes: [],
  } as unknown as EncryptionReport;
  assert.ok(formatEncryptionReport(report).includes(FORECAST_ACCURACY_SENTENCE));
  assert.ok(!formatEncryptionReport({ ...report, forecast: [] }).includes(FORECAST_ACCURACY_SENTENCE));
});

test("compare's story (the report's summary too) and the report's encryption section: with forecasts, and not without", () => {
  const story = encryptionStory(seed(), ceilings)!;
  assert.ok(story.sentences.includes(FORECAST_ACCURACY_SENTENCE));
  assert.ok(encryptionStoryText(story).includes(FORECAST_ACCURACY_SENTENCE));
  assert.ok(renderToStaticMarkup(h(EncryptionSection, { story })).includes(FORECAST_ACCURACY_SENTENCE));
  const none = encryptionStory(seed(), null)!;
  assert.ok(!encryptionStoryText(none).includes(FORECAST_ACCURACY_SENTENCE));
  assert.ok(!renderToStaticMarkup(h(EncryptionSection, { story: none })).includes(FORECAST_ACCURACY_SENTENCE));
});

test("the app's Compare encryption legend: beside the hatched forecast bars, and not without them", () => {
  const view = buildEncryptionView(seed(), ceilings, 'MB')!;
  assert.ok(view.rows.some((r) => r.forecast !== null));
  assert.ok(renderToStaticMarkup(h(EncryptionLegend, { view })).includes(FORECAST_ACCURACY_SENTENCE));
  const bare = buildEncryptionView(seed(), null, 'MB')!;
  assert.ok(!renderToStaticMarkup(h(EncryptionLegend, { view: bare })).includes(FORECAST_ACCURACY_SENTENCE));
});
