import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseDiskDeltaJson } from '../../node/formats/diskdelta-json.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import { syntheticCeilings } from '../model/cipher-fixtures.ts';
import { encryptionStory, sharedSequentialTest } from './encryption-story.ts';
import type { RunRecord } from '../model/results.ts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { EncryptionSection } from '../report/report-encryption.ts';
import { buildEncryptionView } from '../../../renderer/src/view/encryption-view.ts';
import { wholeSpansAsText } from '../report/whole-text.ts';

const seed = () => {
  const text = readFileSync(new URL('../../../assets/reference/2011-thinkpad-x201i-bonnie.json', import.meta.url), 'utf8');
  return parseDiskDeltaJson(text, '2011-thinkpad-x201i-bonnie.json');
};

const ceilings = (oneMBps: number, allMBps: number, warnings: string[] = []): CipherCeilings =>
  syntheticCeilings({ oneCoreBps: oneMBps * 1e6, allCoresBps: allMBps * 1e6, warnings });

describe('the encryption story', () => {
  it('tells the 2011 story: the SSD fell under dm-crypt and one core decrypting was the ceiling', () => {
    const story = encryptionStory(seed(), null)!;
    assert.deepEqual(
      story.columns.map((c) => [c.heading, c.encrypted, c.ceiling]),
      [
        ['HDD', false, null],
        ['SSD', false, null],
        ['SSD + dm-crypt', true, 'cipher'],
      ],
    );
    assert.equal(
      story.sentences[0],
      "The SSD's sequential read fell from 135.9 MB/s to 71.5 MB/s (−47 %) under dm-crypt: one core decrypting at ~70 MB/s was the ceiling, not the disk.",
    );
    assert.match(story.sentences.at(-1)!, /No cipher ceilings of this CPU are kept: run `diskdelta ciphers`/);
  });

  it('forecasts each unencrypted run on this CPU, labelled estimated, with the ceiling that holds', () => {
    const fast = encryptionStory(seed(), ceilings(1100, 2200))!;
    assert.equal(fast.columns[1]!.forecast!.provenance, 'estimated');
    assert.equal(fast.columns[1]!.ceiling, 'disk');
    assert.ok(
      fast.sentences.includes(
        'Encryption would cost this SSD (#2) nothing on this CPU (estimated): the cipher runs at 2.20 GB/s on 2 cores, the disk at 135.9 MB/s.',
      ),
    );
    assert.equal(fast.cipher!.allCores, 2200e6);
    const slow = encryptionStory(seed(), ceilings(70, 70))!;
    assert.equal(slow.columns[1]!.ceiling, 'cipher');
    assert.equal(Math.round(slow.columns[1]!.forecast!.estimatedBytesPerSec / 1e5) / 10, 70);
    assert.ok(
      slow.sentences.some((s) => /^On this CPU dm-crypt would hold this SSD \(#2\) to about 70\.0 MB\/s \(estimated, −48 %\)/.test(s)),
    );
  });

  it('says when the ceiling behind a forecast is flagged, and tells nothing without encryption or ceilings', () => {
    const flagged = encryptionStory(seed(), ceilings(1100, 900, ['slower-than-one-thread: aes …', 'machine-busy: other …']))!;
    assert.match(flagged.sentences.at(-1)!, /flagged \(slower-than-one-thread, machine-busy\): read them as rough/);
    assert.equal(encryptionStory(seed().slice(0, 2), null), null);
  });
});

describe("a device's kind in the story", () => {
  it('is named by its class, as Overview names it: a virtio disk is no HDD, a zram device a RAM disk', () => {
    const [hdd, ssd, crypt] = seed();
    const as = (r: typeof hdd, cls: 'virtual' | 'RAM', rotational: boolean) => ({
      ...r!,
      target: { ...r!.target, device: { ...r!.target.device!, class: cls, rotational } },
    });
    // vda reports rotational 1 (virtio's default), zram 0: the class decides.
    const story = encryptionStory([as(hdd, 'virtual', true), as(ssd, 'RAM', false), as(crypt, 'RAM', false)], null)!;
    assert.deepEqual(
      story.columns.map((c) => c.heading),
      ['virtual disk', 'RAM disk', 'RAM disk + dm-crypt'],
    );
    assert.match(story.sentences[0]!, /^The RAM disk's sequential read fell from/);
  });
});

describe('the story is told on the sequential test the compared runs share (#39 item 7)', () => {
  /** A run of this machine's grid: Q8T1 and Q1T1 both, as `standard` and `full` store them. */
  const measuredGrid = (): RunRecord => {
    const ssd = seed()[1]!;
    const result = ssd.results.find((r) => r.test === 'seq1m-q1t1-read')!;
    return {
      ...ssd,
      label: 'new SSD',
      source: 'measured',
      results: [
        { ...result, test: 'seq1m-q8t1-read', bytesPerSec: 520e6 },
        { ...result, test: 'seq1m-q1t1-read', bytesPerSec: 310e6 },
      ],
    };
  };
  const discardCost = () => {
    const text = readFileSync(new URL('../../../assets/reference/2013-intel-525-discard.json', import.meta.url), 'utf8');
    return parseDiskDeltaJson(text, '2013-intel-525-discard.json');
  };

  it("bonnie++'s one-stream block read (Q1T1) beside a measured grid: the 2011 figures are the published columns", () => {
    const records = [measuredGrid(), ...seed(), ...discardCost()];
    assert.equal(sharedSequentialTest(records), 'seq1m-q1t1-read');
    const story = encryptionStory(records, ceilings(1100, 2200))!;
    assert.equal(story.test, 'seq1m-q1t1-read');
    assert.deepEqual(
      story.columns.map((c) => [c.runIndex, c.measured === null ? null : Math.round(c.measured / 1e5) / 10]),
      [
        [0, 310],
        [1, 41.3],
        [2, 135.9],
        [3, 71.5],
      ],
      'no column for the discard-cost runs (#5, #6): they have no sequential read',
    );
    assert.ok(story.sentences.some((s) => s.includes('from 135.9 MB/s to 71.5 MB/s')));
    const html = renderToStaticMarkup(createElement(EncryptionSection, { story }));
    // A figure and a name are each kept on one line (report/whole-text.ts): read past their spans.
    const text = wholeSpansAsText(html);
    assert.match(text, /135\.9 MB\/s published/);
    assert.match(text, /71\.5 MB\/s published with dm-crypt/);
    assert.doesNotMatch(html, /not in this run/);
  });

  it("Compare's encryption chart picks the same test and draws no empty bar pair", () => {
    const records = [measuredGrid(), ...seed(), ...discardCost()];
    const view = buildEncryptionView(records, ceilings(1100, 2200), 'MB')!;
    assert.equal(view.test, 'seq1m-q1t1-read');
    assert.deepEqual(
      view.rows.map((r) => [r.runIndex, r.measured === null ? null : Math.round(r.measured * 10) / 10]),
      [
        [0, 310],
        [1, 41.3],
        [2, 135.9],
        [3, 71.5],
      ],
    );
  });

  it('a tie goes to Q8T1, as before: measured grids alone keep their queue-depth-8 story', () => {
    assert.equal(sharedSequentialTest([measuredGrid(), measuredGrid()]), 'seq1m-q8t1-read');
  });
});
