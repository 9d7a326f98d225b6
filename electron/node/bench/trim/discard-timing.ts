// What discard-cost's two cases share (the tree, the big file: discard-cost.ts, discard-bigfile.ts):
// a workload verb's passes timed under one mount option with the discard requests counted around
// them, and the sentence of what discard costs per delete, told from noise by the passes' ranges.
import { discardCostHead, discardSeconds, judgeDiscardCost } from '../../../shared/analysis/discard-judgement.ts';
import type { Warning } from '../../../shared/model/results.ts';
import { withStderr } from '../../../shared/model/stderr-tail.ts';
import { readDiscardCounters, type BlockLayer } from '../../system/discard-audit.ts';
import { BenchError } from '../errors.ts';
import { phaseFigures } from '../kinds/workload.ts';
import { locateWorker, runWorker } from '../worker-client.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import type { DiscardSetting } from './discard-cost.ts';
import { runCommand as run } from './run-command.ts';

export type { DiscardSetting };

/** One workload verb's passes under a mount option: the setting, the bytes it said it wrote, its warnings. */
export interface TimedWorkload {
  setting: DiscardSetting;
  /** What the worker's `workload` line said it writes (a big file shrunk to what fits is smaller than asked). */
  bytes: number | null;
  warnings: Warning[];
}

/**
 * A workload verb's passes (tree, bigfile: `args`) as the filesystem is mounted now, and the
 * discard requests the deepest of `layers` completed meanwhile.
 */
export async function timeWorkerUnder(
  option: DiscardSetting['option'],
  layers: BlockLayer[],
  args: string[],
  what: string,
  o: { workerPath?: string; signal?: AbortSignal; stopped: string },
): Promise<TimedWorkload> {
  const deepest = layers.slice(-1);
  const before = await readDiscardCounters(deepest);
  const passes: Array<Extract<WorkerMessage, { type: 'phase' }>> = [];
  const warnings: Warning[] = [];
  let info: Extract<WorkerMessage, { type: 'workload' }> | null = null;
  const exit = await runWorker(args, {
    workerPath: o.workerPath ?? locateWorker(),
    ...(o.signal ? { signal: o.signal } : {}),
    onMessage: (m) => {
      if (m.type === 'phase') passes.push(m);
      else if (m.type === 'workload') info = m;
      else if (m.type === 'warning') warnings.push({ code: m.code, message: m.message });
    },
    onInvalid: () => {},
  });
  if (o.signal?.aborted) throw new BenchError('interrupted', o.stopped);
  if (exit.code !== 0)
    throw BenchError.fromWorker(undefined, withStderr(`${what} failed (worker exit ${exit.code ?? exit.signal})`, exit.stderr), exit.code);
  // Discards a filesystem issues online are sent when its journal commits: wait for that.
  await run('sync', []);
  const after = await readDiscardCounters(deepest);
  const b = before[0]?.counters;
  const a = after[0]?.counters;
  const on = deepest[0];
  const said = info as Extract<WorkerMessage, { type: 'workload' }> | null;
  return {
    setting: {
      option,
      figures: phaseFigures(passes, said),
      deleteRuns: passes.filter((p) => !p.warmup && p.phase === 'delete').map((p) => p.seconds),
      discards: a && b ? a.ios - b.ios : null,
      countedOn: on ? `${on.kind} ${on.name}` : 'no block device',
    },
    bytes: said?.bytes ?? null,
    warnings,
  };
}

const deleteSeconds = (s: DiscardSetting) => s.figures.find((f) => f.subject === 'delete')?.value ?? null;

export const secs = discardSeconds;

/**
 * "online discard costs 1.99 s per 45k-file delete here (0.71 s without, 2.70 s with)": `what` is
 * the delete ("45k-file delete", "3,000 MB file delete"), judged by the one rule of
 * shared/analysis/discard-judgement.ts (ranges of passes told from noise), as the assessment's verdict is.
 */
export function deleteCostHead(settings: DiscardSetting[], what: string): string {
  const phase = (s: DiscardSetting | undefined) => ({ seconds: s ? deleteSeconds(s) : null, passes: s?.deleteRuns ?? [] });
  return discardCostHead(
    judgeDiscardCost(phase(settings.find((s) => s.option === 'nodiscard')), phase(settings.find((s) => s.option === 'discard'))),
    what,
  );
}
