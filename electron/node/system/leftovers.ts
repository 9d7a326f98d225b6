// Finding what a killed DiskDelta run left behind. Everything DiskDelta creates outside its
// test file (loop devices, mappings, scratch mounts) carries its owner's pid in its name, so a
// later run can tell "left by a process that is gone" from "in use by one that still runs"
// and never touches anything else.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The owner's pid in a name made as PREFIX + pid + "-…", or null for a name not ours. */
export function ownerPid(name: string, prefix: string): number | null {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^${escaped}(\\d+)-`).exec(name);
  return m ? Number(m[1]) : null;
}

/** Whether a process runs (one we may not signal runs too); this process always counts as running. */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LoopDevice {
  /** /dev/loopN */
  name: string;
  /** The backing file as attached, without the kernel's " (deleted)" suffix. */
  backFile: string;
}

/** The attached loop devices (none where losetup is missing). */
export async function listLoopDevices(): Promise<LoopDevice[]> {
  // Bounded like every read of the machine (files/read-bounded.ts): a losetup stuck on a device is
  // killed, and the list is then empty rather than the run waiting.
  const out = await run('losetup', ['--list', '--json', '--output', 'NAME,BACK-FILE'], { timeout: 5000, killSignal: 'SIGKILL' }).then(
    (r) => r.stdout,
    () => '',
  );
  if (!out.trim()) return [];
  const devices = (JSON.parse(out) as { loopdevices?: Array<{ name: string; 'back-file': string | null }> }).loopdevices ?? [];
  return devices.map((d) => ({ name: d.name, backFile: (d['back-file'] ?? '').replace(/ \(deleted\)$/, '') }));
}
