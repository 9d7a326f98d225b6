// A discard-cost measurement as the library keeps it: two runs, without and with online discard,
// shaped like the shipped 2013 references (assets/reference/2013-intel-525-discard.json): the
// tree's phases as `phaseSeconds` figures of one workload result, `sourceMeta['mount option']`
// "no discard" / "discard". So `compare` sets them beside the seed's pair, and the discard table
// (analysis/discard-table.ts) reads both pairs the same way. fstrim's time and bytes go with the
// run without discard: it trimmed what those passes' deletes left.
import type { Figure, RunRecord, TargetInfo, Warning } from '../../../shared/model/results.ts';
import type { StackLayer, SystemFacts } from '../../../shared/model/machine.ts';
import { resultWithoutRuns } from '../../formats/common.ts';
import { phaseTrustWarnings, SEED_TREE } from '../kinds/workload.ts';
import type { DiscardCostResult, DiscardSetting } from './discard-cost.ts';
import { bigFileSize, SEED_BIGFILE_DISCARD } from './discard-bigfile.ts';

/** The workload test the runs carry: the seed's tree when it was that size, else a scaled one (never compared as the seed's). */
export function discardTreeTest(files: number, bytes: number): string {
  return files === SEED_TREE.files && bytes === SEED_TREE.bytes ? 'tree-3.9.1' : 'tree-scaled';
}

export const MOUNT_OPTION_WORDS: Record<DiscardSetting['option'], string> = { nodiscard: 'no discard', discard: 'discard' };

export interface DiscardRunContext {
  /** The folder measured, described by system/ (its disk and stack). */
  target: TargetInfo;
  system: SystemFacts;
  version: string;
  createdAt: string;
  label?: string;
}

/** The discard requests a setting's passes sent, as a figure of its delete. */
function discardFigure(s: DiscardSetting, passes: string): Figure {
  return {
    metric: 'discardRequests',
    subject: 'delete',
    value: s.discards,
    unit: 'count',
    provenance: 'measured',
    basis: s.discards === null ? `${s.countedOn} has no discard counters` : `discard requests ${s.countedOn} completed during ${passes}`,
  };
}

/** The big file's result in a run: the seed's 'bigfile' test, so it lines up with the 2013 reference's. */
function bigFileResult(r: DiscardCostResult, option: DiscardSetting['option'], warnings: Warning[]) {
  const s = r.bigfile.settings.find((x) => x.option === option);
  if (!s) return [];
  const figures: Figure[] = [...s.figures, discardFigure(s, 'the timed passes (no warm-up)')];
  const scaled: Warning[] = r.bigfile.scaled ? [{ code: 'bigfile-shrunk', message: r.bigfile.scaled }] : [];
  return [
    resultWithoutRuns({
      test: 'bigfile',
      params: null,
      bytesPerSec: null,
      iops: null,
      warnings: [...warnings, ...scaled, ...phaseTrustWarnings(figures)],
      figures,
    }),
  ];
}

/** The big file as the run names it (the discard table's title for it): its size, the seed's or scaled down. */
export function bigFileMeta(r: DiscardCostResult): string {
  const b = r.bigfile;
  if (b.bytes < b.askedBytes) return `one file of ${bigFileSize(b.bytes)}, scaled down from the ${bigFileSize(b.askedBytes)} asked`;
  return `one file of ${bigFileSize(b.bytes)}${b.bytes === SEED_BIGFILE_DISCARD.bytes ? ", the seed's size" : ''}`;
}

export function discardCostRuns(r: DiscardCostResult, ctx: DiscardRunContext): RunRecord[] {
  const test = discardTreeTest(r.files, r.bytes);
  const mb = Math.round(r.bytes / 1e6);
  const tree = `${r.files.toLocaleString('en-US')} files, ${mb.toLocaleString('en-US')} MB`;
  const base = ctx.label ?? `discard-cost on ${ctx.target.device?.name ?? ctx.target.path}`;
  return r.settings.map((s): RunRecord => {
    const figures: Figure[] = [...s.figures, discardFigure(s, 'the warm-up and timed passes')];
    if (s.option === 'nodiscard')
      figures.push(
        {
          metric: 'phaseSeconds',
          subject: 'fstrim',
          value: r.fstrim.seconds,
          unit: 's',
          provenance: 'measured',
          basis: 'fstrim -v once, after the passes without discard had left their deleted trees untrimmed',
        },
        {
          metric: 'trimmedBytes',
          subject: 'fstrim',
          value: r.fstrim.bytes,
          unit: 'bytes',
          provenance: 'measured',
          basis: r.fstrim.bytes === null ? 'fstrim -v did not say how much it trimmed' : 'as fstrim -v reported it',
        },
      );
    const warnings: Warning[] = [...r.warnings];
    return {
      label: `${base}: ${s.option === 'nodiscard' ? 'without discard' : 'mounted with discard'}`,
      notes: '',
      createdAt: ctx.createdAt,
      source: 'measured',
      sourceFormat: 'diskdelta',
      sourceMeta: {
        experiment: 'discard-cost',
        tree:
          test === 'tree-3.9.1'
            ? `source tree of the seed's size (${tree})`
            : `source tree of ${tree}, scaled from the seed's 45,168 files, 592 MB`,
        'mount option': MOUNT_OPTION_WORDS[s.option],
        'big file': bigFileMeta(r),
        'big file verdict': r.bigfile.verdict,
        workload: `a source tree of ${tree} written then synced, deleted then synced; a warm-up pass, then the median of the timed passes`,
        where: whereText(r.where),
      },
      target: { ...ctx.target, stack: stackOf(r.where, s.option, ctx.target.stack ?? []) },
      system: ctx.system,
      settings: { runs: s.deleteRuns.length },
      engine: { name: 'diskdelta-worker tree', version: ctx.version },
      // Each phase's passes judged as every workload's are (a noisy delete is said, not printed as steady).
      results: [
        resultWithoutRuns({
          test,
          params: null,
          bytesPerSec: null,
          iops: null,
          warnings: [...warnings, ...phaseTrustWarnings(figures)],
          figures,
        }),
        ...bigFileResult(r, s.option, warnings),
      ],
      extras: [],
      warnings,
    };
  });
}

function whereText(where: DiscardCostResult['where']): string {
  if (where.mode === 'remount')
    return `on ${where.mountPoint} itself (${where.source}), found ${where.original} and remounted for the other setting, then put back`;
  const dio = where.directIo === true ? 'direct I/O' : where.directIo === false ? 'buffered (direct I/O refused)' : 'direct I/O not known';
  return `a scratch ext4 on ${where.device} (${dio}) over ${where.image}, removed afterwards`;
}

/** The layers the tree met: the scratch ext4 and its loop above the folder's own stack, or the folder's own remounted. */
function stackOf(where: DiscardCostResult['where'], option: DiscardSetting['option'], folder: StackLayer[]): StackLayer[] {
  const options = option === 'discard' ? 'discard' : '(no discard)';
  if (where.mode === 'remount')
    return folder.map((l) =>
      l.kind === 'mount' ? { ...l, details: { ...l.details, options: `${String(l.details.options ?? '')} ${options}`.trim() } } : l,
    );
  return [
    { kind: 'mount', name: 'ext4', details: { options, scratch: true } },
    {
      kind: 'loop',
      name: where.device.replace(/^\/dev\//, ''),
      details: { backingFile: where.image, directIo: where.directIo },
      discardPasses: true,
    },
    ...folder,
  ];
}
