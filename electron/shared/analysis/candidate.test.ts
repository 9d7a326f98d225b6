// This machine's limits on a candidate: the bus cap (applied exactly when the drive's figure
// exceeds what the link carries, with its reason said), an NVMe drive on a SATA machine, dm-crypt's
// ceiling on this CPU; and candidates from runs, labelled with where they came from.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  capCandidate,
  candidateFromRun,
  candidateFromSpec,
  FIGURE_KEYS,
  LINK_EFFICIENCY,
  type Candidate,
  type MachineLink,
} from './candidate.ts';
import { EXAMPLE_CANDIDATE } from '../model/candidate.ts';
import { fixedCipherRates } from './encryption.ts';
import { currentDiskRun, workloadRun } from './forecast-fixtures.ts';
import type { RunRecord } from '../model/results.ts';
import { limitReasons } from '../report/candidates-model.ts';

const SATA2: MachineLink = { ceilingBytesPerSec: 300e6, description: 'SATA 3.0 Gb/s, 300 MB/s', transport: 'sata' };
const example = (edit: (s: typeof EXAMPLE_CANDIDATE) => void = () => {}): Candidate => {
  const s = structuredClone(EXAMPLE_CANDIDATE);
  edit(s);
  return candidateFromSpec(s, 'ssd.json');
};

describe('machine limits on a candidate', () => {
  it('a 550 MB/s SATA drive on SATA 2 reads about 280 MB/s: the bus is the limit, said', () => {
    const capped = capCandidate(
      example((s) => (s.sequentialMBps.read = 550)),
      { link: SATA2, cipher: null },
    );
    const read = capped.figures.seqRead;
    assert.equal(read.limit, 'bus');
    assert.equal(read.drive, 550e6);
    assert.equal(read.here, 300e6 * LINK_EFFICIENCY);
    assert.ok(read.here! >= 270e6 && read.here! <= 285e6, 'SATA 2 holds SATA SSDs near 270–285 MB/s');
    assert.match(
      limitReasons(capped, SATA2.description).join('\n'),
      /^the bus \(SATA 3\.0 Gb\/s, 300 MB\/s\) is the limit: sequential read 550 → 279 MB\/s, /,
    );
  });

  it('the bus cap applies exactly when the figure exceeds the link, for every figure', () => {
    const usable = 300e6 * LINK_EFFICIENCY;
    for (const mbps of [50, 200, 278, 279, 279.0001, 280, 300, 560, 7000]) {
      // Every figure at the same rate (IOPS chosen to give it), with the consistency rules aside.
      const c: Candidate = { ...example(), figures: Object.fromEntries(FIGURE_KEYS.map((k) => [k, mbps * 1e6])) as Candidate['figures'] };
      const capped = capCandidate(c, { link: SATA2, cipher: null });
      for (const k of FIGURE_KEYS) {
        const f = capped.figures[k];
        const over = mbps * 1e6 > usable;
        assert.equal(f.limit, over ? 'bus' : 'drive', `${k} at ${mbps} MB/s`);
        assert.equal(f.here, over ? usable : mbps * 1e6);
      }
    }
  });

  it('an NVMe candidate on a SATA-only machine is said, and no SATA cap is put on it', () => {
    const nvme = example((s) => {
      s.interface = 'nvme';
      s.sequentialMBps.read = 3500;
    });
    const capped = capCandidate(nvme, { link: SATA2, cipher: null });
    assert.equal(capped.figures.seqRead.here, 3500e6);
    assert.equal(capped.usableLinkBytesPerSec, null);
    assert.match(capped.notes.join(' '), /an NVMe drive: this machine's disk sits on SATA 3\.0 Gb\/s.*not NVMe/);
  });

  it('no link known: nothing capped, and said', () => {
    const capped = capCandidate(example(), { link: null, cipher: null });
    assert.equal(capped.figures.seqRead.here, 560e6);
    assert.match(capped.notes[0]!, /link speed is not known/);
  });

  it("encrypted: dm-crypt's ceiling on this CPU caps what the bus leaves, with its reason", () => {
    // The seed's 2011 laptop: one core of ~70 MB/s AES behind a SATA 2 link.
    const capped = capCandidate(example(), { link: SATA2, cipher: fixedCipherRates(70e6, 1) });
    assert.equal(capped.figures.seqRead.limit, 'cipher');
    assert.equal(capped.figures.seqRead.here, 70e6);
    assert.match(
      limitReasons(capped, SATA2.description).join('\n'),
      /^dm-crypt's cipher on this CPU is the limit: sequential read 560 → 70\.0 MB\/s/m,
    );
    // QD1 4K: one request at a time, the times add (encryption.ts): 1/(1/45 MB/s + 1/70 MB/s).
    const q1 = capped.figures.rnd4kQ1Read;
    assert.ok(Math.abs(q1.here! - 1 / (1 / (11_000 * 4096) + 1 / 70e6)) < 1);
  });
});

describe('a candidate from runs', () => {
  it("the 2011 reference Intel 320 becomes a candidate labelled reference, its read capped by this SATA 2 link's only above it", () => {
    const file = JSON.parse(
      readFileSync(new URL('../../../assets/reference/2011-thinkpad-x201i-bonnie.json', import.meta.url), 'utf8'),
    ) as {
      runs: RunRecord[];
    };
    const intel = file.runs.find((r) => /Intel 320 SSD,/.test(r.label))!;
    const c = candidateFromRun({ ...intel, id: 7 });
    assert.ok(!('refused' in c));
    assert.equal(c.origin, 'reference');
    assert.match(c.originText, /^reference \(bonnie\+\+\) run 7 .*measured elsewhere/);
    assert.equal(c.figures.seqRead, 132_673 * 1024);
    assert.equal(c.figures.seqWrite, null);
    assert.equal(capCandidate(c, { link: SATA2, cipher: null }).figures.seqRead.limit, 'drive');
  });

  it('a run candidate is named by its label: two imports of one model stay apart', () => {
    const mine = candidateFromRun(currentDiskRun({ id: 3, label: "Anna's MX500, 2024", source: 'imported', sourceFormat: 'kdiskmark' }));
    const theirs = candidateFromRun(currentDiskRun({ id: 4, label: "Ben's MX500", source: 'imported', sourceFormat: 'kdiskmark' }));
    assert.ok(!('refused' in mine) && !('refused' in theirs));
    // Both runs measured an "Old HDD": the model would name them alike.
    assert.deepEqual([mine.name, theirs.name], ["Anna's MX500, 2024", "Ben's MX500"]);
    assert.equal(mine.originText, 'imported (kdiskmark) run 3 "Anna\'s MX500, 2024": measured elsewhere, on another machine');
  });

  it('an imported disk run is labelled imported; a workload run is refused as a candidate', () => {
    const imported = candidateFromRun({ ...currentDiskRun(), id: 3, source: 'imported', sourceFormat: 'kdiskmark' });
    assert.ok(!('refused' in imported));
    assert.equal(imported.origin, 'imported');
    assert.match(imported.originText, /^imported \(kdiskmark\) run 3/);
    assert.equal(imported.interface, 'sata');
    const refused = candidateFromRun({ ...workloadRun(), id: 4 });
    assert.ok('refused' in refused);
    assert.match(refused.refused, /run 4 .* is not a disk measured by the rate tests/);
  });

  it('a run held by its own link says the drive may be faster; one measured through dm-crypt gets no second cipher cap', () => {
    const held = currentDiskRun({ id: 5 });
    held.results = held.results.map((r) => (r.test === 'seq1m-q8t1-read' ? { ...r, bytesPerSec: 275e6 } : r));
    const c = candidateFromRun(held);
    assert.ok(!('refused' in c));
    assert.match(
      c.notes.join(' '),
      /its sequential read came within 15 % of what its own link carries \(SATA 3\.0 Gb\/s\): the drive may be faster/,
    );
    assert.deepEqual((candidateFromRun(currentDiskRun({ id: 6 })) as Candidate).notes, []);

    const encrypted = currentDiskRun({ id: 7 });
    encrypted.target = { ...encrypted.target, stack: [{ kind: 'dm-crypt', name: 'luks', details: {}, encrypted: true }] };
    const e = candidateFromRun(encrypted);
    assert.ok(!('refused' in e));
    const capped = capCandidate(e, { link: SATA2, cipher: fixedCipherRates(10e6, 1) });
    assert.equal(capped.figures.seqRead.here, 100e6, 'its measured 100 MB/s stands: no second cipher');
    assert.match(capped.notes.join(' '), /measured through dm-crypt.*not applied again/);
    // The same drive unencrypted is capped by this CPU's 10 MB/s cipher.
    assert.equal(
      capCandidate(candidateFromRun(currentDiskRun({ id: 8 })) as Candidate, { link: SATA2, cipher: fixedCipherRates(10e6, 1) }).figures
        .seqRead.here,
      10e6,
    );
  });
});
