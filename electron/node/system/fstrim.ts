// Is periodic TRIM scheduled? Read the unit symlinks systemd itself reads, not `systemctl`
// output (which is for people, and needs a running systemd).
import { readlink } from 'node:fs/promises';
import { exists, inRoot, rootOf, type RootOptions } from './sysfs.ts';
import type { FstrimTimerFacts } from '../../shared/model/machine.ts';

const UNIT_DIRS = ['/etc/systemd/system', '/usr/lib/systemd/system', '/lib/systemd/system'];

export async function readFstrimTimer(opts?: RootOptions): Promise<FstrimTimerFacts> {
  const root = rootOf(opts);
  const systemdRunning = await exists(root, '/run/systemd/system');
  // An /etc unit linked to /dev/null is masked: it never runs whatever links point at it.
  if (await isMasked(root)) {
    return { enabled: false, systemdRunning, reason: 'fstrim.timer is masked' };
  }
  const installed = (await Promise.all(UNIT_DIRS.map((d) => exists(root, `${d}/fstrim.timer`)))).some(Boolean);
  const anySystemd = (await Promise.all(UNIT_DIRS.map((d) => exists(root, d)))).some(Boolean);
  if (!anySystemd)
    return { enabled: null, systemdRunning, reason: 'no systemd unit directories: TRIM scheduling, if any, is cron or manual' };
  const wants = await Promise.all(UNIT_DIRS.map((d) => exists(root, `${d}/timers.target.wants/fstrim.timer`)));
  if (wants.some(Boolean)) {
    return systemdRunning
      ? { enabled: true, systemdRunning }
      : { enabled: true, systemdRunning, reason: 'enabled, but systemd is not the running init here, so it does not fire' };
  }
  return {
    enabled: false,
    systemdRunning,
    reason: installed ? 'fstrim.timer is installed but not enabled' : 'fstrim.timer is not installed (util-linux ships it)',
  };
}

async function isMasked(root: string): Promise<boolean> {
  try {
    return (await readlink(inRoot(root, '/etc/systemd/system/fstrim.timer'))) === '/dev/null';
  } catch {
    return false;
  }
}
