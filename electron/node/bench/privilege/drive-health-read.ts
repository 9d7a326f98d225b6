// Reading a drive's own counters through the privileged helper's read-only smart-log (NVMe) and
// smart-ata (SATA) verbs: run directly by root, through pkexec for anyone else (one prompt,
// remembered by auth_admin_keep).
// A failure is a reason kept with the run, never a failed run: the counters are context.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { driveHealthSchema, type DriveHealth } from '../../../shared/model/schemas.ts';
import { ATA_DISK, NVME_DISK, noCountersReason, parseSmartLog } from '../../system/drive-health.ts';
import { parseSmartctl, SMARTCTL_ARGS } from '../../system/smartctl.ts';
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

export interface ReadOptions {
  deviceClass?: string | null;
  elevate?: boolean;
  signal?: AbortSignal;
  /**
   * Tests only: the smartctl run as the caller (a stand-in printing canned JSON). A parameter, not
   * an environment variable, so no command line or inherited environment (`sudo -E`) can name the
   * program; the elevated read never uses it.
   */
  smartctl?: string;
  /** Tests only: the uid the read is planned for (default the process's), to walk the non-root path as root. */
  uid?: number;
}

const isRoot = (options: ReadOptions) => (options.uid ?? process.getuid?.()) === 0;

/**
 * The counters of the whole disk `disk` (kernel name), or why not. `deviceClass` words the reason
 * for a disk that keeps none. `elevate` false: a user who is not root is not asked for a password.
 */
export async function readDriveHealth(disk: string | null, options: ReadOptions = {}): Promise<DriveHealth> {
  if (disk !== null && ATA_DISK.test(disk)) return readAtaHealth(disk, options);
  if (disk === null || !NVME_DISK.test(disk)) return { disk, protocol: null, reason: noCountersReason(disk, options.deviceClass ?? null) };
  const device = `/dev/${disk}`;
  let command: string;
  let args: string[];
  if (isRoot(options)) {
    const helper = rootHelper();
    if (!helper) return { disk, protocol: null, reason: 'the helper (native/build/diskdelta-helper) is not built: run `make -C native`' };
    [command, args] = [helper, ['smart-log', device]];
  } else {
    if (options.elevate !== true)
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
    return validated(parseSmartLog(disk, line));
  } catch (error) {
    return { disk, protocol: null, reason: `the SMART log of ${device} could not be understood: ${(error as Error).message}` };
  }
}

/** Where smartctl is looked for: system folders only (not the caller's PATH), as it may run as root. */
const SMARTCTL_PATHS = ['/usr/sbin/smartctl', '/sbin/smartctl', '/usr/local/sbin/smartctl', '/usr/bin/smartctl'];

/** smartctl's absolute path in a system folder, or null. No environment variable moves it: it may run as root. */
function locateSmartctl(): string | null {
  return SMARTCTL_PATHS.find((p) => existsSync(p)) ?? null;
}

const isBlockDevice = (path: string) => {
  try {
    return statSync(path).isBlockDevice();
  } catch {
    return false;
  }
};

/**
 * A SATA/SCSI disk (`sda`): `smartctl -j -A -H -i /dev/sda`, a fixed argv on a path checked to be
 * a block device. smartctl opens the disk, which needs root (or the disk group): it is run as the
 * caller first, and only where that is refused and `elevate` allows, through the helper's smart-ata
 * verb (the system's smartctl, as root, under the same remembered authorisation as smart-log: one
 * password prompt for a run's before and after reads).
 */
async function readAtaHealth(disk: string, options: ReadOptions): Promise<DriveHealth> {
  const smartctl = options.smartctl !== undefined ? (existsSync(options.smartctl) ? options.smartctl : null) : locateSmartctl();
  if (!smartctl) return { disk, protocol: null, reason: 'drive counters not read: smartctl (smartmontools) is not installed' };
  const device = `/dev/${disk}`;
  if (!isBlockDevice(device))
    return { disk, protocol: null, reason: `${device} is not a block device: its SMART attributes were not read` };
  const args = [...SMARTCTL_ARGS, device];
  let r = await runHelper(smartctl, args, options.signal);
  let health = healthFromSmartctl(disk, r);
  const refused = health.protocol === null && /permission denied|operation not permitted/i.test(health.reason);
  if (refused && !isRoot(options)) {
    if (options.elevate !== true)
      return {
        disk,
        protocol: null,
        reason: `reading ${device}'s SMART attributes needs root (smartctl opens the disk): run as root, or with --elevate`,
      };
    // Elevated, the helper runs its own fixed smartctl: a stand-in (options.smartctl) never runs as root.
    let helper: string;
    try {
      helper = (await locateHelper()).path;
    } catch (error) {
      return { disk, protocol: null, reason: `reading ${device}'s SMART attributes needs root: ${(error as Error).message}` };
    }
    r = await runHelper('pkexec', [helper, 'smart-ata', device], options.signal);
    health = healthFromSmartctl(disk, { ...r, stderr: r.stderr.replace(/^diskdelta-helper: /gm, '') });
  }
  return health;
}

/** smartctl's output as the model: its JSON (exit status is a bit mask: the JSON says what failed). */
function healthFromSmartctl(disk: string, r: { code: number | null; stdout: string; stderr: string }): DriveHealth {
  if (!r.stdout.trimStart().startsWith('{')) {
    const why = r.stderr.trim().split('\n').at(-1) || `smartctl exited ${r.code ?? 'on a signal'}`;
    return { disk, protocol: null, reason: `the SMART attributes of /dev/${disk} were not read: ${why}` };
  }
  try {
    return validated(parseSmartctl(disk, r.stdout));
  } catch (error) {
    return { disk, protocol: null, reason: `smartctl's output for /dev/${disk} could not be understood: ${(error as Error).message}` };
  }
}

/**
 * What a drive (or a root program) printed, as the model only once driveHealthSchema accepts it:
 * `diskdelta health --json` prints it and a run stores it, so it is checked here, where it is parsed.
 * Throws (the callers' "could not be understood") with the first field the schema refused.
 */
function validated(health: DriveHealth): DriveHealth {
  const checked = driveHealthSchema.safeParse(health);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  throw new Error(issue ? `${issue.path.join('.') || 'the reading'}: ${issue.message}` : 'not a drive reading');
}
