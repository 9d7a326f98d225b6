// The access-recorder kind (issue "How big an SSD do I need", item 2): the worker's `record` verb
// watches one whole filesystem with fanotify for hours or days and appends each file's touches
// to a trace (native/src/access-recorder.c); when it stops (its time, or a signal: a clean end,
// exit 0), the whole trace, every session of it, becomes the run's figures: distinct bytes and
// the LRU cache curve (analysis/access-trace.ts). Only the fanotify group is privileged: root's
// worker makes it itself; for anyone else the helper (`plan.helper`) holds it and passes back
// only records of the files they may look up (native/src/access-feed.h).
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Warning } from '../../../shared/model/results.ts';
import { counted } from '../../../shared/model/display.ts';
import { resultWithoutRuns } from '../../formats/common.ts';
import { ACCESS_CURVE_TEST, accessCurveFigures, streamTraceCurve } from '../../../shared/analysis/access-trace.ts';
import { readLines } from '../../files/read-lines.ts';
import { resolveDbPath } from '../../store/library.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import { recordArgv } from '../worker-argv.ts';
import type { MeasurementKind } from './kind.ts';

export interface AccessRecorderPlan {
  target: string;
  trace: string;
  /** 0: until stopped. */
  seconds: number;
  mergeMs: number;
  /** The privileged helper that records for a user who is not root (null: this process is root). */
  helper: string | null;
}

const planSchema: z.ZodType<AccessRecorderPlan> = z.strictObject({
  target: z.string().min(1),
  trace: z.string().min(1),
  seconds: z
    .number()
    .min(0)
    .max(400 * 86_400),
  mergeMs: z.number().int().min(0).max(3_600_000),
  helper: z.string().min(1).nullable(),
});

/** Where a recording of a folder's filesystem is kept unless told: beside the library, one trace per folder. */
export function defaultTracePath(target: string, env: NodeJS.ProcessEnv = process.env): string {
  const name = target.replace(/^\/+|\/+$/g, '').replace(/[^A-Za-z0-9._-]+/g, '_') || 'root';
  return join(dirname(resolveDbPath(undefined, env)), 'traces', `${name}.ndjson`);
}

type Progress = Extract<WorkerMessage, { type: 'record-progress' }>;
type Result = Extract<WorkerMessage, { type: 'record-result' }>;
type Start = Extract<WorkerMessage, { type: 'record-start' }>;

export const accessRecorderKind: MeasurementKind<AccessRecorderPlan> = {
  id: 'access-recorder',
  title: 'File accesses recorded (cache curve)',
  measuresDisk: false,
  stepPerTest: true,
  readsOnly: true,
  planSchema,
  plan: (spec) => ({ target: spec.target, trace: defaultTracePath(spec.target), seconds: 0, mergeMs: 1000, helper: null }),
  writes: () => false,
  start(plan, context) {
    let start: Start | null = null;
    let result: Result | null = null;
    return {
      argv: recordArgv(plan),
      read(m) {
        if (m.type === 'record-start') start = m;
        else if (m.type === 'record-result') result = m;
        else if (m.type === 'record-progress') {
          const p: Progress = m;
          context.emit({
            type: 'progress',
            test: ACCESS_CURVE_TEST,
            testIndex: 0,
            testCount: 1,
            phase: 'measure',
            run: 1,
            runs: 1,
            fraction: plan.seconds > 0 ? Math.min(0.99, p.seconds / plan.seconds) : 0,
            etaSec: plan.seconds > 0 ? Math.max(0, plan.seconds - p.seconds) : null,
          });
        }
      },
      results() {
        const ended: Result | null = result;
        if (!ended) return [];
        // Read as a stream, twice: a trace of days outgrows any string (issue 38 item 3).
        const read = streamTraceCurve(() => readLines(plan.trace));
        if ('reason' in read) return [];
        const { summary, curve } = read;
        const warnings: Warning[] = [];
        if (summary.unsized > 0)
          warnings.push({
            code: 'record-unsized',
            message: `${counted(summary.unsized, 'touch')} of this trace ${summary.unsized === 1 ? 'was' : 'were'} kept without a size (sessions recorded by an older DiskDelta, outside the folders it could walk): they are not in the curve`,
          });
        if (summary.lost > 0)
          warnings.push({
            code: 'record-lost',
            message: `the kernel's event queue overflowed ${counted(summary.lost, 'time')}: some accesses were not recorded, so the curve under-counts them`,
          });
        // Read once this session has ended cleanly (its "end" line is in): every other session
        // without one was killed. (It was taken for the running one, and one kill went unsaid.)
        const killed = summary.sessions - summary.ended;
        if (killed > 0)
          warnings.push({
            code: 'record-killed',
            message: `${counted(killed, 'session')} of this trace ended without stopping cleanly (killed, or the machine went down): what it had written is kept, what the kernel still held is not`,
          });
        const begun: Start | null = start;
        const basis =
          `fanotify trace ${plan.trace} (${begun?.group === 'helper' ? 'through the helper: the files you may look up, anywhere on the filesystem; others in folders closed to you are not seen' : 'as root'}): ` +
          `${counted(summary.sessions, 'session')}, ${Math.round(summary.recordedSeconds)} s recorded, ${counted(curve.accesses, 'file touch')}; ` +
          `cache served bytes by LRU stack distance over that trace`;
        return [
          resultWithoutRuns({
            test: ACCESS_CURVE_TEST,
            params: null,
            bytesPerSec: null,
            iops: null,
            warnings,
            figures: accessCurveFigures(summary, curve, basis),
          }),
        ];
      },
      settings: () => ({}),
    };
  },
};
