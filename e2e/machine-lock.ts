// A lock on a resource that every test suite on this machine shares: the polkit lab's system
// bus, polkitd, its rules folder and the installed helper are machine-wide, so two suites at
// once (two clones, two engineers) would run each other's denying rule and stop each other's
// polkitd. flock(1) (util-linux) holds the lock while its stdin is open: when this process
// ends however it ends, the pipe closes and the lock goes with it — never a stale lock.
import { spawn } from 'node:child_process';

/** How long a released flock gets to end before it is killed. */
const RELEASE_MS = 10_000;

/**
 * Waits for the lock, telling `onWait` once if another suite holds it; resolves to its release,
 * which resolves in turn when flock has ended (a caller that awaits it leaves no process behind:
 * the test runner kills, and reports, what a file leaves in its group).
 */
export function holdMachineLock(
  name: string,
  onWait: (message: string) => void,
  { releaseMs = RELEASE_MS }: { releaseMs?: number } = {},
): Promise<() => Promise<void>> {
  const path = `/run/lock/diskdelta-${name}.lock`;
  return new Promise((resolve, reject) => {
    const holder = spawn('flock', ['--verbose', path, 'sh', '-c', 'echo held; read _'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const waiting = setTimeout(() => onWait(`waiting for ${path}: another test suite on this machine holds it`), 1000);
    holder.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (!text.includes('held')) return;
      clearTimeout(waiting);
      // Once held, neither the holder nor its pipes may keep this process alive: a test file
      // whose teardown failed before releasing would otherwise never exit, holding the lock.
      holder.unref();
      for (const pipe of [holder.stdin, holder.stdout, holder.stderr]) (pipe as unknown as { unref(): void }).unref();
      // destroy closes the pipe at once (end() would wait for the event loop, which a spawnSync blocks).
      const ended = new Promise<void>((done) =>
        holder.exitCode !== null || holder.signalCode !== null ? done() : holder.once('exit', () => done()),
      );
      resolve(() => {
        holder.ref(); // until flock has ended: released, this process may wait for it
        holder.stdin.destroy();
        // A flock that does not end once its stdin closes (stopped, stuck) is killed, not waited
        // for without end: its lock goes with it all the same.
        const kill = setTimeout(() => holder.kill('SIGKILL'), releaseMs);
        return ended.finally(() => clearTimeout(kill));
      });
    });
    holder.on('error', (error) => {
      clearTimeout(waiting);
      reject(new Error(`cannot lock ${path} with flock (util-linux): ${error.message}`));
    });
    holder.on('exit', (code) => {
      clearTimeout(waiting);
      reject(new Error(`flock ${path} ended (exit ${code}) before holding the lock`));
    });
  });
}
