// The working-set kind: how much of the user's data was read or written lately (issue "How big
// an SSD do I need"). One worker verb, `working-set`, walks the target folder on its one mount;
// this module turns its lines into the run's figures (analysis/working-set.ts) and names what
// was not walked: other mounts (virtual ones apart), unreadable and too-deep folders. The
// mount's atime options say what the times can show (system/atime-policy.ts).
import { statfsSync } from 'node:fs';
import { z } from 'zod';
import type { Warning } from '../../../shared/model/results.ts';
import { counted, shortPath } from '../../../shared/model/display.ts';
import { resultWithoutRuns } from '../../formats/common.ts';
import { summarizeScan, workingSetFigures, WORKING_SET_TEST, type ScannedFolder } from '../../../shared/analysis/working-set.ts';
import { atimeFacts, atimeWarnings, mountOf } from '../../system/atime-policy.ts';
import { VIRTUAL_FS } from '../../system/virtual-fs.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import { workingSetArgv } from '../worker-argv.ts';
import type { MeasurementKind } from './kind.ts';

type Skip = Extract<WorkerMessage, { type: 'scan-skip' }>;
type Start = Extract<WorkerMessage, { type: 'scan-start' }>;
type Totals = Extract<WorkerMessage, { type: 'scan-result' }>;

export interface WorkingSetPlan {
  target: string;
}

const planSchema: z.ZodType<WorkingSetPlan> = z.strictObject({ target: z.string().min(1) });
// devtmpfs too (it has tmpfs's magic number, so it is not in VIRTUAL_FS): /dev under a scanned
// folder is no "other filesystem to scan on its own", which the target check would refuse.
const VIRTUAL_NAMES = new Set([...VIRTUAL_FS.values(), 'devtmpfs']);
const LISTED = 8;

function listed(paths: string[]): string {
  const shown = paths.slice(0, LISTED).join(', ');
  return paths.length > LISTED ? `${shown} and ${paths.length - LISTED} more` : shown;
}

/** What the walk left out, one warning per reason, each naming the folders and what to do. */
export function skipWarnings(target: string, skips: readonly Skip[], mountinfo?: string): Warning[] {
  const inside = (s: Skip) => shortPath(`${target.replace(/\/$/, '')}/${s.path}`);
  const mounts = skips
    .filter((s) => s.reason === 'other-mount')
    .map((s) => ({ skip: s, mount: mountOf(`${target}/${s.path}`, s.mnt_id, mountinfo) }));
  const virtual = mounts.filter((m) => m.mount && VIRTUAL_NAMES.has(m.mount.fsType));
  const other = mounts.filter((m) => !virtual.includes(m));
  const warnings: Warning[] = [];
  if (other.length)
    warnings.push({
      code: 'scan-other-mount',
      message: `${other.length === 1 ? '1 folder is another filesystem' : `${other.length} folders are other filesystems`}, not walked (one filesystem at a time): ${listed(other.map((m) => `${inside(m.skip)} (${m.mount?.fsType ?? 'unknown'})`))}. Scan ${other.length === 1 ? 'it' : 'each'} on its own: diskdelta working-set ${other[0] ? inside(other[0].skip) : ''}`,
    });
  if (virtual.length)
    warnings.push({
      code: 'scan-virtual-fs',
      message: `${virtual.length === 1 ? '1 folder is a virtual filesystem' : `${virtual.length} folders are virtual filesystems`} the kernel makes up, with no data on a disk: ${listed(virtual.map((m) => `${inside(m.skip)} (${m.mount?.fsType})`))}`,
    });
  const unreadable = skips.filter((s) => s.reason === 'unreadable');
  if (unreadable.length)
    warnings.push({
      code: 'scan-unreadable',
      message: `${counted(unreadable.length, 'folder')} could not be read, so their files are not counted: ${listed(unreadable.map((s) => `${inside(s)}${s.errno ? ` (${s.errno})` : ''}`))}. Scan as the user who owns them, or as root`,
    });
  const deep = skips.filter((s) => s.reason === 'too-deep');
  if (deep.length)
    warnings.push({
      code: 'scan-too-deep',
      message: `${counted(deep.length, 'folder')} ${deep.length === 1 ? 'lies' : 'lie'} too deep to walk (more nested folders than the open-file limit, or a path over 8 KiB): ${listed(deep.map(inside))}`,
    });
  return warnings;
}

/**
 * Files and folders removed while the scan walked (listed by their folder, gone before it could
 * look at them): their bytes are not counted, and a folder's whole content with it. Said, so a
 * scan of a folder in use is not read as exact.
 */
export function vanishedWarning(vanished: number): Warning | null {
  if (vanished === 0) return null;
  return {
    code: 'scan-vanished',
    message: `${vanished} ${vanished === 1 ? 'file or folder' : 'files or folders'} ${vanished === 1 ? 'was' : 'were'} removed while the scan walked past ${vanished === 1 ? 'it' : 'them'}, so ${vanished === 1 ? 'it is' : 'they are'} not counted (nor what a removed folder held): something was deleting files in the folder meanwhile. Scan again when it is quiet for an exact figure`,
  };
}

/** Used inodes of the target's filesystem: the most files a scan can meet, for its progress bar. */
function inodesInUse(target: string): number | null {
  try {
    const s = statfsSync(target);
    return s.files > 0 ? Number(s.files - s.ffree) : null;
  } catch {
    return null;
  }
}

export const workingSetKind: MeasurementKind<WorkingSetPlan> = {
  id: 'working-set',
  title: 'Working set (bytes by last use)',
  measuresDisk: false,
  stepPerTest: true,
  readsOnly: true,
  planSchema,
  plan: (spec) => ({ target: spec.target }),
  writes: () => false,
  start(plan, context) {
    const folders: ScannedFolder[] = [];
    const skips: Skip[] = [];
    let start: Start | null = null;
    let totals: Totals | null = null;
    const ceiling = inodesInUse(plan.target);
    return {
      argv: workingSetArgv(plan),
      read(m) {
        if (m.type === 'scan-start') start = m;
        else if (m.type === 'scan-skip') skips.push(m);
        else if (m.type === 'scan-result') totals = m;
        else if (m.type === 'scan-folder')
          folders.push({
            name: m.name,
            files: m.files,
            apparentBytes: m.apparent,
            allocatedBytes: m.allocated,
            touched: m.touched,
            written: m.written,
          });
        else if (m.type === 'scan-progress')
          context.emit({
            type: 'progress',
            test: WORKING_SET_TEST,
            testIndex: 0,
            testCount: 1,
            phase: 'measure',
            run: 1,
            runs: 1,
            // Against the filesystem's used inodes: an upper bound, so the bar may end early, never overrun.
            fraction: ceiling ? Math.min(0.99, (m.files + m.dirs) / ceiling) : 0,
            etaSec: null,
          });
      },
      results() {
        const scanned: Totals | null = totals;
        if (!scanned) return [];
        const begun: Start | null = start;
        const mount = mountOf(plan.target, begun?.mnt_id);
        const warnings = [...(mount ? atimeWarnings(atimeFacts(mount)) : []), ...skipWarnings(plan.target, skips)];
        if (scanned.future > 0)
          warnings.push({
            code: 'scan-future-times',
            message: `${counted(scanned.future, 'file')} carry times later than this machine's clock: counted as touched today. A clock that was once ahead, or files from another machine, can do this`,
          });
        const vanishing = vanishedWarning(scanned.vanished);
        if (vanishing) warnings.push(vanishing);
        const summary = summarizeScan(folders, warnings);
        const apparent = folders.reduce((n, f) => n + f.apparentBytes, 0);
        const basis =
          `allocated bytes of ${counted(scanned.files, 'file')} in ${counted(scanned.dirs, 'folder')} on one mount` +
          `${mount ? ` (${mount.mountPoint}, ${mount.fsType})` : ''}, by days since last read or written; ` +
          `apparent size ${apparent} bytes; ${counted(scanned.links_skipped, 'hard link')} counted once; ` +
          `${scanned.other} other entries (symbolic links, devices) hold no data`;
        return [
          resultWithoutRuns({
            test: WORKING_SET_TEST,
            params: null,
            bytesPerSec: null,
            iops: null,
            warnings,
            figures: workingSetFigures(summary, basis),
          }),
        ];
      },
      settings: () => ({}),
    };
  },
};
