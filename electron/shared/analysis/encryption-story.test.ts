import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseDiskDeltaJson } from '../../node/formats/diskdelta-json.ts';
import type { CipherCeilings } from '../model/cipher-types.ts';
import { encryptionStory } from './encryption-story.ts';

const seed = () => {
  const text = readFileSync(new URL('../../../assets/reference/2011-thinkpad-x201i-bonnie.json', import.meta.url), 'utf8');
  return parseDiskDeltaJson(text, '2011-thinkpad-x201i-bonnie.json');
};

const ceilings = (oneMBps: number, allMBps: number, warnings: string[] = []): CipherCeilings => ({
  source: 'kernel',
  sourceLabel: 'kernel crypto API (AF_ALG), the code dm-crypt runs',
  backend: 'af_alg',
  cpus: 2,
  cpu: { model: 'Test CPU', aesNi: true, vaes: false, flags: ['aes'] },
  figures: [1, 2].map((threads) => ({
    cipher: 'aes-xts-plain64',
    keyBits: 512,
    kernelName: 'xts(aes)',
    sectorBytes: 65536,
    threads,
    encryptBps: (threads === 1 ? oneMBps : allMBps) * 1e6,
    decryptBps: (threads === 1 ? oneMBps : allMBps) * 1e6,
  })),
  unavailable: [],
  warnings,
  measuredAt: '2026-12-01T14:00:00.000Z',
  windowSeconds: 0.2,
  rounds: 5,
  kernel: '6.1.0',
});

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
