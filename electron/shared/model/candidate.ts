// A candidate drive described by its spec sheet (issue #42): the small JSON file a person fills
// in from a datasheet before buying, and `diskdelta forecast --example` prints. Units are the
// datasheet's own (MB/s = 10^6 bytes/s, IOPS at 4 KiB, GB and TB decimal) so a figure is copied,
// never converted by hand; analysis/candidate.ts turns it into raw units.
//
// Refused with the field named: a missing or negative figure, an absurd one (faster than any
// drive: MAX_MBPS), and figures that contradict each other (sequential slower than 4K random in
// the same direction, a fast cache larger than the drive, a write past the cache faster than in it).
//
// Pure: the renderer may bundle it (the app's candidate form validates with the same schema).
import { z } from 'zod';
import { groupedInteger } from './display.ts';

export const CANDIDATE_FORMAT = 'diskdelta-candidate';
/** Candidates compared side by side (CLI, app, report): more would not fit a page's columns. */
export const MAX_CANDIDATES = 4;
export const CANDIDATE_VERSION = 1;
/** A spec sheet is a few hundred bytes: a file past this is not one (the CLI and the app refuse it alike). */
export const MAX_SPEC_BYTES = 64 * 1024;

/** Why a file larger than MAX_SPEC_BYTES is refused. */
export const specTooLarge = (name: string): string => `${name} is not a spec sheet: larger than 64 KiB`;

/**
 * A spec sheet file's text as JSON, or why not, in the words the CLI and the app both say; the
 * JSON is then checked by parseCandidateSpec.
 */
export function parseSpecText(text: string, name: string): { ok: true; json: unknown } | { ok: false; problem: string } {
  if (new TextEncoder().encode(text).length > MAX_SPEC_BYTES) return { ok: false, problem: specTooLarge(name) };
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      problem: `${name} is not JSON (${(error as Error).message}): diskdelta forecast --example prints a spec sheet to fill in`,
    };
  }
}

/** Interfaces a candidate may name; the link it would sit on is this machine's (analysis/candidate.ts). */
export const CANDIDATE_INTERFACES = ['sata', 'nvme', 'usb'] as const;
export type CandidateInterface = (typeof CANDIDATE_INTERFACES)[number];

/** 100 GB/s: no drive (PCIe 6.0 x16 carries ~121 GB/s, the fastest SSDs ~15) reads this fast. */
export const MAX_MBPS = 100_000;
/** 4 KiB I/Os at 100 GB/s. */
export const MAX_IOPS = Math.floor((MAX_MBPS * 1e6) / 4096);
/** 1 PB: larger than any single drive sold. */
export const MAX_CAPACITY_GB = 1_000_000;
/** 1,000,000 TBW: far beyond any rated endurance (enterprise drives reach tens of thousands). */
export const MAX_TBW = 1_000_000;
/** Bytes per random I/O of the 4K figures. */
export const RANDOM_BLOCK_BYTES = 4096;

const mbps = z
  .number({ error: (i) => (i.input === undefined ? 'missing' : 'must be a number of MB/s') })
  .positive('must be above 0 MB/s')
  .max(MAX_MBPS, `is absurd: over ${groupedInteger(MAX_MBPS)} MB/s (100 GB/s), faster than any drive; check the unit is MB/s`);
const iops = z
  .number({ error: (i) => (i.input === undefined ? 'missing' : 'must be a number of IOPS') })
  .positive('must be above 0 IOPS')
  .max(MAX_IOPS, `is absurd: over ${groupedInteger(MAX_IOPS)} IOPS of 4 KiB (100 GB/s); check it is IOPS, not bytes`);
const readWrite = <T extends z.ZodType>(figure: T) => z.strictObject({ read: figure, write: figure });

export const candidateSpecSchema = z
  .strictObject({
    format: z.literal(CANDIDATE_FORMAT, { error: `must be "${CANDIDATE_FORMAT}"` }),
    version: z.literal(CANDIDATE_VERSION, { error: `must be ${CANDIDATE_VERSION}` }),
    name: z.string({ error: 'missing: the drive model, e.g. "Samsung 870 EVO 1 TB"' }).trim().min(1, 'must not be empty').max(200),
    interface: z.enum(CANDIDATE_INTERFACES, { error: `must be one of ${CANDIDATE_INTERFACES.join(', ')}` }),
    capacityGB: z
      .number({ error: (i) => (i.input === undefined ? 'missing' : 'must be a number of GB') })
      .positive('must be above 0 GB')
      .max(MAX_CAPACITY_GB, 'is absurd: over 1 PB; give the capacity in GB (10^9 bytes)'),
    /** Sequential (128 KiB–1 MiB at a deep queue: the datasheet's headline), MB/s. */
    sequentialMBps: readWrite(mbps),
    /** 4 KiB random, IOPS, at queue depth 1 and 32. */
    random4kIops: z.strictObject({ qd1: readWrite(iops), qd32: readWrite(iops) }),
    /**
     * The fast (SLC) cache: how much it takes at the sequential write speed, and the write
     * speed once it is full. A drive without one: sizeGB 0 (the past-cache speed is then unused).
     */
    fastCache: z.strictObject({
      sizeGB: z
        .number({ error: (i) => (i.input === undefined ? 'missing' : 'must be a number of GB') })
        .nonnegative('must not be negative (0: no fast cache)'),
      writeMBpsPastCache: mbps,
    }),
    enduranceTBW: z
      .number({ error: (i) => (i.input === undefined ? 'missing' : 'must be a number of TB written') })
      .positive('must be above 0 TB written')
      .max(MAX_TBW, 'is absurd: over 1,000,000 TB written; give the rated endurance in TB (the datasheet\'s "TBW")'),
    /** Where the figures come from (a datasheet's address, a review); free text. */
    source: z.string().max(1000).optional(),
  })
  .superRefine((s, ctx) => {
    const mbOf4k = (n: number) => (n * RANDOM_BLOCK_BYTES) / 1e6;
    // Figures already refused on their own (absurd, zero) are not compared: one message per mistake.
    const sane = (x: number, max: number) => x > 0 && x <= max;
    for (const dir of ['read', 'write'] as const) {
      const seq = s.sequentialMBps[dir];
      for (const qd of ['qd1', 'qd32'] as const) {
        const random = mbOf4k(s.random4kIops[qd][dir]);
        // Small random I/O never outruns large sequential I/O in the same direction on the same drive.
        if (sane(seq, MAX_MBPS) && sane(s.random4kIops[qd][dir], MAX_IOPS) && random > seq)
          ctx.addIssue({
            code: 'custom',
            path: ['sequentialMBps', dir],
            message: `is slower than 4K random ${dir} at ${qd.toUpperCase()} (${groupedInteger(s.random4kIops[qd][dir])} IOPS = ${random.toFixed(0)} MB/s): sequential ${dir} is always the faster; check the figures and their units`,
          });
      }
    }
    if (sane(s.capacityGB, MAX_CAPACITY_GB) && s.fastCache.sizeGB > s.capacityGB)
      ctx.addIssue({
        code: 'custom',
        path: ['fastCache', 'sizeGB'],
        message: `is larger than the drive (${s.fastCache.sizeGB} GB cache on ${s.capacityGB} GB): the cache is part of the drive's flash`,
      });
    if (sane(s.sequentialMBps.write, MAX_MBPS) && s.fastCache.writeMBpsPastCache > s.sequentialMBps.write)
      ctx.addIssue({
        code: 'custom',
        path: ['fastCache', 'writeMBpsPastCache'],
        message: `is faster than the write into the cache (sequentialMBps.write ${s.sequentialMBps.write} MB/s): past the cache a drive writes slower, never faster`,
      });
  });
export type CandidateSpec = z.infer<typeof candidateSpecSchema>;

/** What `diskdelta forecast --example` prints: a mid-range SATA SSD's datasheet, filled in. */
export const EXAMPLE_CANDIDATE: CandidateSpec = {
  format: CANDIDATE_FORMAT,
  version: CANDIDATE_VERSION,
  name: 'Example SATA SSD 1 TB',
  interface: 'sata',
  capacityGB: 1000,
  sequentialMBps: { read: 560, write: 530 },
  random4kIops: { qd1: { read: 11_000, write: 35_000 }, qd32: { read: 98_000, write: 88_000 } },
  fastCache: { sizeGB: 42, writeMBpsPastCache: 520 },
  enduranceTBW: 600,
  source: 'an example: replace every figure with those of the drive you consider (its datasheet)',
};

/** "sequentialMBps.read: missing": one line per problem, each naming its field. */
export function candidateProblems(input: unknown): string[] {
  const parsed = candidateSpecSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.join(', ');
      return `${field ? `${field}: ` : ''}unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}: see diskdelta forecast --example`;
    }
    return `${field || '(the file)'}: ${issue.message}`;
  });
}

/** The spec, or the problems that refuse it (each naming its field). */
export function parseCandidateSpec(input: unknown): { ok: true; spec: CandidateSpec } | { ok: false; problems: string[] } {
  const parsed = candidateSpecSchema.safeParse(input);
  return parsed.success ? { ok: true, spec: parsed.data } : { ok: false, problems: candidateProblems(input) };
}
