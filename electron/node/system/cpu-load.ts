// How much of the CPUs other processes took while DiskDelta measured: the machine's busy time
// (/proc/stat) less this process tree's own (/proc/self/stat, the worker's time included once
// it has been waited for). The load average cannot tell the two apart: a four-thread test
// alone raises it to 4. The bench scripts (scripts/bench-*.ts) judge their ratios the same way.
import { readRegularFileSync } from '../files/read-bounded.ts';
import { cpus } from 'node:os';

/**
 * /proc/stat and /proc/<pid>/stat count in USER_HZ ticks, which the kernel fixes at 100 for
 * user space on every architecture Linux supports today (sysconf(_SC_CLK_TCK)).
 */
const USER_HZ = 100;

/** Busy ticks of the whole machine from /proc/stat's first line; steal counts (another guest's work). */
export function machineBusyTicks(procStat: string): number {
  const fields = (procStat.split('\n')[0] ?? '').trim().split(/\s+/);
  if (fields[0] !== 'cpu') throw new Error('/proc/stat does not start with the cpu line');
  const [user, nice, system, , , irq, softirq, steal] = fields.slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce<number>((a, v) => a + (v ?? 0), 0);
}

/** This process's ticks and those of its waited-for children (utime, stime, cutime, cstime). */
export function treeTicks(selfStat: string): number {
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const after = selfStat.slice(selfStat.lastIndexOf(')') + 2).split(' ');
  // after[0] is field 3 (state); utime is field 14 → after[11].
  return [11, 12, 13, 14].reduce((a, i) => a + Number(after[i] ?? 0), 0);
}

export interface OtherCpuUse {
  /** CPUs other processes kept busy on average over the window (1.5 = one and a half CPUs). */
  otherCpus: number;
  cpus: number;
  seconds: number;
}

/** The other processes' CPU use between two readings. */
export function otherCpuUse(
  before: { busy: number; tree: number; at: number },
  after: { busy: number; tree: number; at: number },
  cpuCount: number,
): OtherCpuUse {
  const seconds = Math.max((after.at - before.at) / 1000, 1e-3);
  const other = Math.max(0, after.busy - before.busy - (after.tree - before.tree)) / USER_HZ;
  return { otherCpus: other / seconds, cpus: cpuCount, seconds };
}

/** Start watching; `stop()` gives the other processes' CPU use since. null where /proc is not readable. */
export function watchOtherCpu(): { stop(): OtherCpuUse | null } {
  const read = () => {
    try {
      return {
        busy: machineBusyTicks(readRegularFileSync('/proc/stat')),
        tree: treeTicks(readRegularFileSync('/proc/self/stat')),
        at: performance.now(),
      };
    } catch {
      return null;
    }
  };
  const before = read();
  return {
    stop() {
      const after = read();
      return before && after ? otherCpuUse(before, after, cpus().length || 1) : null;
    },
  };
}
