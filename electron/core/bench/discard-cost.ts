// What online discard costs here, measured: the tree workload on a scratch ext4 in a loop file
// on the user's filesystem, mounted without and then with `discard`, the loop device's discard
// counters read around each delete; then fstrim's time on it. The scratch filesystem leaves the
// user's own mount alone; what it changes: the discards reach the loop device and become holes
// punched in its file, so the cost below that is the backing filesystem's (and its disk's).
// Root only (losetup, mount). Everything made is removed on every exit path, in `finally`.
import { mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Figure } from '../model/results.ts';
import { blockLayers, readDiscardCounters } from '../system/discard-audit.ts';
import { BenchError } from './errors.ts';
import { phaseFigures, SEED_TREE } from './kinds/workload.ts';
import { parseFstrimBytes, runCommand as run } from './trim-audit.ts';
import { locateWorker, runWorker } from './worker-client.ts';
import type { WorkerMessage } from './worker-protocol.ts';

/** The seed's Intel 525 (ext4 on LVM on LUKS, 2013): tree delete + sync without and with discard, a weekly fstrim. */
export const SEED_DISCARD = { deleteOff: 0.71, deleteOn: 2.697, fstrimAbout: 60 } as const;

export interface DiscardSetting {
  option: 'nodiscard' | 'discard';
  figures: Figure[];
  /** Discard requests the loop device completed during this setting's passes. */
  loopDiscards: number | null;
}

export interface DiscardCostResult {
  files: number;
  bytes: number;
  settings: DiscardSetting[];
  fstrim: { seconds: number; bytes: number | null };
  verdict: string;
}

async function must(command: string, args: string[]): Promise<string> {
  const r = await run(command, args);
  if (r.code !== 0) throw new BenchError('internal', `${command} ${args.join(' ')} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout;
}

const deleteSeconds = (s: DiscardSetting) => s.figures.find((f) => f.subject === 'delete')?.value ?? null;

export async function runDiscardCost(
  folder: string,
  options: { files?: number; bytes?: number; runs?: number; workerPath?: string } = {},
): Promise<DiscardCostResult> {
  if (process.getuid?.() !== 0)
    throw new BenchError('permission', 'comparing discard on and off needs root (a loop device and mounts): run as root');
  const files = options.files ?? SEED_TREE.files;
  const bytes = options.bytes ?? SEED_TREE.bytes;
  const runs = options.runs ?? 3;
  // Named like the worker's test files, so a run killed outright leaves nothing the next run keeps.
  const image = join(folder, `.diskdelta-${process.pid}-discard-cost.tmp`);
  let device: string | null = null;
  let mountpoint: string | null = null;
  try {
    await must('truncate', ['-s', String(Math.max(2 * bytes, 512 * 2 ** 20) + files * 8192), image]);
    device = (await must('losetup', ['-f', '--show', image])).trim();
    await must('mkfs.ext4', ['-q', '-E', 'nodiscard', device]);
    mountpoint = await mkdtemp(join(tmpdir(), 'diskdelta-discard-'));
    const loop = blockLayers([{ kind: 'loop', name: basename(device), details: {} }]);
    const settings: DiscardSetting[] = [];
    let fstrim: DiscardCostResult['fstrim'] = { seconds: 0, bytes: null };
    for (const option of ['nodiscard', 'discard'] as const) {
      await must('mount', ['-o', option, device, mountpoint]);
      const before = await readDiscardCounters(loop);
      const passes: Array<Extract<WorkerMessage, { type: 'phase' }>> = [];
      let info: Extract<WorkerMessage, { type: 'workload' }> | null = null;
      const args = ['tree', '--target', mountpoint, '--runs', String(runs), '--warmup-passes', '1'];
      args.push('--tree-files', String(files), '--tree-bytes', String(bytes));
      const exit = await runWorker(args, {
        workerPath: options.workerPath ?? locateWorker(),
        onMessage: (m) => {
          if (m.type === 'phase') passes.push(m);
          else if (m.type === 'workload') info = m;
        },
        onInvalid: () => {},
      });
      if (exit.code !== 0)
        throw BenchError.fromWorker(undefined, `the tree workload failed: ${exit.stderr.trim().split('\n').pop() ?? ''}`, exit.code);
      await run('sync', []);
      const after = await readDiscardCounters(loop);
      const b = before[0]?.counters;
      const a = after[0]?.counters;
      settings.push({ option, figures: phaseFigures(passes, info), loopDiscards: a && b ? a.ios - b.ios : null });
      if (option === 'nodiscard') {
        // The trees written and deleted without discard left their blocks for fstrim: time it now.
        const started = performance.now();
        const out = await must('fstrim', ['-v', mountpoint]);
        fstrim = { seconds: (performance.now() - started) / 1000, bytes: parseFstrimBytes(out) };
      }
      await must('umount', [mountpoint]);
    }
    const off = deleteSeconds(settings[0]!);
    const on = deleteSeconds(settings[1]!);
    const cost = off !== null && on !== null ? on - off : null;
    const verdict =
      `online discard costs ${cost === null ? '?' : cost.toFixed(2)} s per ${Math.round(files / 1000)}k-file delete here ` +
      `(${off?.toFixed(2)} s without, ${on?.toFixed(2)} s with); a fstrim after ${runs + 1} such trees took ${fstrim.seconds.toFixed(2)} s. ` +
      `The seed's Intel 525 (2013): ${(SEED_DISCARD.deleteOn - SEED_DISCARD.deleteOff).toFixed(2)} s per 45k-file delete ` +
      `(${SEED_DISCARD.deleteOff} s without, ${SEED_DISCARD.deleteOn} s with); a weekly fstrim about a minute.`;
    return { files, bytes, settings, fstrim, verdict };
  } finally {
    // Each step on its own: one failing must not leave the others behind.
    if (mountpoint) {
      await run('umount', [mountpoint]);
      await rmdir(mountpoint).catch(() => {});
    }
    if (device) await run('losetup', ['-d', device]);
    await rm(image, { force: true });
  }
}
