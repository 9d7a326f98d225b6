// Reading a drive's own counters through the privileged helper's read-only smart-log verb: run
// directly by root, through pkexec for anyone else (one prompt, remembered by auth_admin_keep).
// A failure is a reason kept with the run, never a failed run: the counters are context.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DriveHealth } from '../../../shared/model/schemas.ts';
import { NVME_DISK, noCountersReason, parseSmartLog } from '../../system/drive-health.ts';
import { locateWorker } from '../worker-client.ts';
import { locateHelper } from './elevation.ts';

/** How long the helper may take (a prompt for the password included) before the read is given up. */
const READ_BOUND_MS = 60_000;

/** The helper root runs itself: DISKDELTA_HELPER, else the one built beside the worker. */
function rootHelper(): string | null {
  const path = process.env.DISKDELTA_HELPER || join(dirname(locateWorker()), 'diskdelta-helper');
  return existsSync(path) ? path : null;
}

function runHelper(
  command: string,
  args: string[],
  signal?: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, timeout: READ_BOUND_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: stderr || error.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The counters of the whole disk `disk` (kernel name), or why not. `deviceClass` words the reason
 * for a disk that keeps none. `elevate` false: a user who is not root is not asked for a password.
 */
export async function readDriveHealth(
  disk: string | null,
  options: { deviceClass?: string | null; elevate?: boolean; signal?: AbortSignal } = {},
): Promise<DriveHealth> {
  if (disk === null || !NVME_DISK.test(disk)) return { disk, protocol: null, reason: noCountersReason(disk, options.deviceClass ?? null) };
  const device = `/dev/${disk}`;
  let command: string;
  let args: string[];
  if (process.getuid?.() === 0) {
    const helper = rootHelper();
    if (!helper) return { disk, protocol: null, reason: 'the helper (native/build/diskdelta-helper) is not built: run `make -C native`' };
    [command, args] = [helper, ['smart-log', device]];
  } else {
    if (options.elevate === false)
      return {
        disk,
        protocol: null,
        reason: "reading the drive's SMART log needs root (an NVMe admin command), and this run was not allowed to ask for a password",
      };
    try {
      const choice = await locateHelper();
      [command, args] = ['pkexec', [choice.path, 'smart-log', device]];
    } catch (error) {
      return { disk, protocol: null, reason: `reading the drive's SMART log needs root: ${(error as Error).message}` };
    }
  }
  const r = await runHelper(command, args, options.signal);
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (r.code !== 0 || !line) {
    const why = r.stderr.trim().split('\n').at(-1) || `the helper exited ${r.code ?? 'on a signal'}`;
    return { disk, protocol: null, reason: `the SMART log of ${device} was not read: ${why.replace(/^diskdelta-helper: /, '')}` };
  }
  try {
    return parseSmartLog(disk, line);
  } catch (error) {
    return { disk, protocol: null, reason: `the SMART log of ${device} could not be understood: ${(error as Error).message}` };
  }
}
