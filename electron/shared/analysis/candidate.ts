// A candidate drive in raw units, from its spec sheet (model/candidate.ts) or from runs of that
// model measured elsewhere (an import, a reference, a run of this machine), and the same six
// figures of the disk in use today; then THIS machine's limits applied to a candidate: the link
// the new disk would sit on (the current disk's) and dm-crypt's ceiling on this CPU.
//
// THE LINK MODEL (estimated): a link's ceiling (system/link.ts: what it carries after line
// encoding, 300 MB/s for SATA 2) is never reached by transfers: commands and framing take about
// 7 % (SATA SSDs rated 560 MB/s read ~550 on SATA 3's 600; the 2011 laptop's SATA 2 held SSDs
// near 270–285). So a figure above LINK_EFFICIENCY × the ceiling is capped there, and nowhere else.
//
// Pure: the renderer may bundle it.
import type { CandidateSpec } from '../model/candidate.ts';
import { RANDOM_BLOCK_BYTES } from '../model/candidate.ts';
import type { RunRecord, TestParams, TestResult } from '../model/results.ts';
import { runEncrypted, runKind } from '../model/run-kind.ts';
import type { RunSource } from '../model/figure-terms.ts';
import { forecastTest, type CipherRates } from './encryption.ts';
import { resultWithoutRuns } from '../model/result-builders.ts';
import { formatCount } from './units.ts';

/** Share of a link's ceiling that transfers reach (see THE LINK MODEL). */
export const LINK_EFFICIENCY = 0.93;

export const FIGURE_KEYS = ['seqRead', 'seqWrite', 'rnd4kQ1Read', 'rnd4kQ1Write', 'rnd4kQ32Read', 'rnd4kQ32Write'] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];

interface FigureDef {
  words: string;
  write: boolean;
  params: TestParams;
  /** The library's tests that measure it, best first (an import may hold only the QD1 sequential read). */
  tests: readonly string[];
}

const seq = (rw: 'read' | 'write', queueDepth: number): TestParams => ({ rw, blockSize: 1024 * 1024, queueDepth, threads: 1 });
const rnd = (rw: 'randread' | 'randwrite', queueDepth: number): TestParams => ({
  rw,
  blockSize: RANDOM_BLOCK_BYTES,
  queueDepth,
  threads: 1,
});

export const FIGURES: Readonly<Record<FigureKey, FigureDef>> = {
  seqRead: { words: 'sequential read', write: false, params: seq('read', 8), tests: ['seq1m-q8t1-read', 'seq1m-q1t1-read'] },
  seqWrite: { words: 'sequential write', write: true, params: seq('write', 8), tests: ['seq1m-q8t1-write', 'seq1m-q1t1-write'] },
  rnd4kQ1Read: { words: '4K random read at QD1', write: false, params: rnd('randread', 1), tests: ['rnd4k-q1t1-read'] },
  rnd4kQ1Write: { words: '4K random write at QD1', write: true, params: rnd('randwrite', 1), tests: ['rnd4k-q1t1-write'] },
  rnd4kQ32Read: { words: '4K random read at QD32', write: false, params: rnd('randread', 32), tests: ['rnd4k-q32t1-read'] },
  rnd4kQ32Write: { words: '4K random write at QD32', write: true, params: rnd('randwrite', 32), tests: ['rnd4k-q32t1-write'] },
};

/** The six figures in bytes/s (4K ones too: IOPS × 4096); null where the source has none. */
export type DriveFigures = Record<FigureKey, number | null>;

export type CandidateOrigin = 'spec sheet' | RunSource;

export interface Candidate {
  name: string;
  /** Where its figures come from: a spec sheet (the maker's claim) or runs measured, imported or shipped as reference. */
  origin: CandidateOrigin;
  /** "spec sheet ssd.json", "imported run 12 (KDiskMark)": said beside every forecast. */
  originText: string;
  interface: 'sata' | 'nvme' | 'usb' | null;
  capacityBytes: number | null;
  figures: DriveFigures;
  /** The fast (SLC) cache; null: not known (a run without a sustained write). 0: none. */
  cacheBytes: number | null;
  pastCacheBytesPerSec: number | null;
  enduranceTbw: number | null;
  /** Measured through dm-crypt: its figures already carry a cipher's ceiling (never applied twice). */
  encrypted: boolean;
  /** Said beside its figures (a run held by its own link). */
  notes: string[];
}

export function candidateFromSpec(spec: CandidateSpec, file: string): Candidate {
  const mb = (x: number) => x * 1e6;
  const io = (x: number) => x * RANDOM_BLOCK_BYTES;
  return {
    name: spec.name,
    origin: 'spec sheet',
    originText: `spec sheet ${file}${spec.source ? ` (${spec.source})` : ''}: the maker's figures, not measured`,
    interface: spec.interface,
    capacityBytes: spec.capacityGB * 1e9,
    figures: {
      seqRead: mb(spec.sequentialMBps.read),
      seqWrite: mb(spec.sequentialMBps.write),
      rnd4kQ1Read: io(spec.random4kIops.qd1.read),
      rnd4kQ1Write: io(spec.random4kIops.qd1.write),
      rnd4kQ32Read: io(spec.random4kIops.qd32.read),
      rnd4kQ32Write: io(spec.random4kIops.qd32.write),
    },
    cacheBytes: spec.fastCache.sizeGB * 1e9,
    pastCacheBytesPerSec: mb(spec.fastCache.writeMBpsPastCache),
    enduranceTbw: spec.enduranceTBW,
    encrypted: false,
    notes: [],
  };
}

/** A result's bytes/s: its own, else IOPS × block size. */
function bytesPerSecOf(r: TestResult, blockSize: number): number | null {
  if (r.bytesPerSec !== null && r.bytesPerSec > 0) return r.bytesPerSec;
  if (r.iops !== null && r.iops > 0) return r.iops * (r.params?.blockSize ?? blockSize);
  return null;
}

/** The six figures of a disk run (its first matching test each); which stood in is said in `from`. */
export function driveFiguresOfRun(run: Pick<RunRecord, 'results'>): { figures: DriveFigures; from: Partial<Record<FigureKey, string>> } {
  const figures = {} as DriveFigures;
  const from: Partial<Record<FigureKey, string>> = {};
  for (const key of FIGURE_KEYS) {
    const def = FIGURES[key];
    figures[key] = null;
    for (const test of def.tests) {
      const r = run.results.find((x) => x.test === test);
      const v = r ? bytesPerSecOf(r, def.params.blockSize) : null;
      if (v !== null) {
        figures[key] = v;
        from[key] = test;
        break;
      }
    }
  }
  return { figures, from };
}

const INTERFACE_OF_CLASS: Record<string, Candidate['interface']> = { 'SATA SSD': 'sata', HDD: 'sata', 'NVMe SSD': 'nvme', USB: 'usb' };

/** A candidate from a disk run of that model (measured here, imported from someone's file, or reference). */
export function candidateFromRun(run: RunRecord): Candidate | { refused: string } {
  if (runKind(run) !== 'disk')
    return { refused: `run ${run.id ?? '?'} ("${run.label}") is not a disk measured by the rate tests: a candidate needs a drive's rates` };
  const { figures } = driveFiguresOfRun(run);
  if (FIGURE_KEYS.every((k) => figures[k] === null))
    return { refused: `run ${run.id ?? '?'} ("${run.label}") has none of the sequential or 4K random tests a forecast reads` };
  const device = run.target.device;
  const transport = device?.transport ?? null;
  const iface = device
    ? (INTERFACE_OF_CLASS[device.class] ?? (transport === 'sata' || transport === 'nvme' || transport === 'usb' ? transport : null))
    : null;
  const notes: string[] = [];
  // A run can show no more than its own link carried: the drive itself may be faster.
  const ownLink = device?.linkCeilingBytesPerSec ?? null;
  const held = ownLink ? FIGURE_KEYS.filter((k) => (figures[k] ?? 0) >= 0.85 * ownLink * LINK_EFFICIENCY) : [];
  if (held.length)
    notes.push(
      `its ${held.map((k) => FIGURES[k].words).join(', ')} came within 15 % of what its own link carries (${device?.linkDescription ?? `${Math.round(ownLink! / 1e6)} MB/s`}): the drive may be faster than this run shows`,
    );
  const encrypted = runEncrypted(run) === true;
  if (encrypted)
    notes.push("it was measured through dm-crypt: its figures carry that machine's cipher, and this CPU's is not applied again");
  const how =
    run.source === 'measured'
      ? 'measured'
      : run.source === 'imported'
        ? `imported (${run.sourceFormat})`
        : `reference (${run.sourceFormat})`;
  return {
    // Its label, as the library and the pickers name it: two imports of one model stay apart, and the name the user gave is kept.
    name: run.label,
    origin: run.source,
    originText: `${how} run ${run.id ?? '?'} "${run.label}"${run.source === 'measured' ? '' : ': measured elsewhere, on another machine'}`,
    interface: iface,
    capacityBytes: device?.sizeBytes ?? null,
    figures,
    cacheBytes: null,
    pastCacheBytesPerSec: null,
    enduranceTbw: null,
    encrypted,
    notes,
  };
}

// ---- This machine's limits. ----

export interface MachineLink {
  /** The current disk's link ceiling (its device fingerprint), bytes/s. */
  ceilingBytesPerSec: number;
  description: string;
  /** The current disk's transport: sata, nvme, usb … */
  transport: string | null;
}

export interface MachineLimits {
  link: MachineLink | null;
  /** dm-crypt's rates on this CPU when the user encrypts; null: not encrypting (or not measured). */
  cipher: CipherRates | null;
}

export type Limit = 'drive' | 'bus' | 'cipher';

export interface CappedFigure {
  key: FigureKey;
  /** The candidate's own figure (spec or measured elsewhere). */
  drive: number | null;
  /** What it would do here, estimated. */
  here: number | null;
  limit: Limit;
}

export interface CappedCandidate {
  candidate: Candidate;
  figures: Record<FigureKey, CappedFigure>;
  /** The link a figure is capped at (LINK_EFFICIENCY × ceiling); null: no link applies (unknown, another interface). */
  usableLinkBytesPerSec: number | null;
  notes: string[];
}

const mbText = (bps: number) => `${formatCount(Math.round(bps / 1e6))} MB/s`;

/** The link that applies to this candidate, or null with the reason in notes. */
function applicableLink(c: Candidate, link: MachineLink | null, notes: string[]): number | null {
  if (!link) {
    notes.push("the current disk's link speed is not known, so no bus limit is applied");
    return null;
  }
  const here = link.transport;
  if (c.interface === 'nvme' && here !== 'nvme') {
    notes.push(
      `an NVMe drive: this machine's disk sits on ${link.description}${here ? ` (${here})` : ''}, not NVMe; it needs an M.2/PCIe slot DiskDelta does not see from here, whose speed is unknown, so its figures are not capped by a bus`,
    );
    return null;
  }
  if (c.interface === 'sata' && here === 'nvme') {
    notes.push(
      `a SATA drive on a machine whose disk is NVMe: it needs a SATA port; SATA 3 itself keeps it under ${mbText(600e6 * LINK_EFFICIENCY)}`,
    );
    return 600e6 * LINK_EFFICIENCY;
  }
  return link.ceilingBytesPerSec * LINK_EFFICIENCY;
}

/** A candidate's figures as they would be here: capped by the link, then (encrypting) by dm-crypt on this CPU. */
export function capCandidate(c: Candidate, limits: MachineLimits): CappedCandidate {
  const notes: string[] = [...c.notes];
  const usable = applicableLink(c, limits.link, notes);
  // A run measured through dm-crypt already carries a cipher's ceiling.
  const cipher = c.encrypted ? null : limits.cipher;
  const figures = {} as Record<FigureKey, CappedFigure>;
  for (const key of FIGURE_KEYS) {
    const def = FIGURES[key];
    const drive = c.figures[key];
    if (drive === null) {
      figures[key] = { key, drive, here: null, limit: 'drive' };
      continue;
    }
    let here = drive;
    let limit: Limit = 'drive';
    // The bus applies exactly when the drive's figure exceeds what the link carries.
    if (usable !== null && drive > usable) {
      here = usable;
      limit = 'bus';
    }
    if (cipher) {
      const encrypted = forecastTest(resultWithoutRuns({ test: key, params: def.params, bytesPerSec: here, iops: null }), cipher);
      if (encrypted && encrypted.estimatedBytesPerSec < here * 0.99) {
        here = encrypted.estimatedBytesPerSec;
        limit = 'cipher';
      }
    }
    // Why, in words, is said once per limit by report/candidates-model.ts (limitReasons).
    figures[key] = { key, drive, here, limit };
  }
  return { candidate: c, figures, usableLinkBytesPerSec: usable, notes };
}
