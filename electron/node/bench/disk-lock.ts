// One benchmark per disk across every DiskDelta process on the machine (CLI, app, browser
// mode, any user): two runs on one disk measure each other (609 MB/s instead of ~1,600 alone)
// and both would "succeed". The run manager's own check only sees its process.
//
// The lock is a listening Unix socket in Linux's abstract namespace, named after the disk:
// binding a name another process holds fails with EADDRINUSE, the kernel frees it when its
// holder exits however it exits (no stale lock files after a crash or SIGKILL), no folder has
// to be shared between users, and the holder answers a connection with who it is, so the
// refusal can say which process and target hold the disk.
import { connect, createServer, type Server } from 'node:net';
import { BenchError } from './errors.ts';

export interface DiskLock {
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  target: string;
}

/** The socket name for a disk key ("vda", "dev:8:0"): only safe characters, bounded length. */
export function lockName(disk: string): string {
  return `\0diskdelta-disk-${disk.replace(/[^A-Za-z0-9:._-]/g, '_').slice(0, 80)}`;
}

function askHolder(name: string): Promise<Holder | null> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(name);
    const done = (holder: Holder | null) => {
      socket.destroy();
      resolve(holder);
    };
    socket.setTimeout(1000, () => done(null));
    socket.on('error', () => done(null));
    socket.on('data', (chunk) => (text += chunk.toString('utf8')).length > 8192 && done(null));
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(text) as Partial<Holder>;
        done(typeof parsed.pid === 'number' && typeof parsed.target === 'string' ? { pid: parsed.pid, target: parsed.target } : null);
      } catch {
        done(null);
      }
    });
  });
}

export interface AcquireOptions {
  /** Wait for the disk to be free (polling) rather than refuse; aborting stops the wait. */
  wait?: boolean;
  signal?: AbortSignal;
  /** Called once when the disk is busy and we wait, with the message to show. */
  onWait?: (message: string) => void;
  pollMs?: number;
}

/**
 * Takes the disk for this run. When another process has it: waits (options.wait) and says so
 * once through onWait, or throws BenchError 'disk-busy' naming that process. `disk` identifies
 * the whole disk, so a folder and a partition of one disk collide.
 */
export async function acquireDiskLock(disk: string, target: string, options: AcquireOptions = {}): Promise<DiskLock> {
  let told = false;
  for (;;) {
    if (options.signal?.aborted) throw new BenchError('interrupted', 'the run was cancelled while it waited for the disk');
    try {
      return await tryLock(disk, target);
    } catch (error) {
      if (!(error instanceof BenchError) || error.code !== 'disk-busy' || !options.wait) throw error;
      if (!told) options.onWait?.(`waiting: ${error.message.replace(/: two runs at once.*$/, '')}; this run starts when it is done`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
    }
  }
}

async function tryLock(disk: string, target: string): Promise<DiskLock> {
  const name = lockName(disk);
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    socket.end(JSON.stringify({ pid: process.pid, target } satisfies Holder));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = await askHolder(name);
    const who = holder ? `DiskDelta process ${holder.pid} (measuring ${holder.target})` : 'another DiskDelta process';
    throw new BenchError(
      'disk-busy',
      `${who} is already measuring the disk ${disk}: two runs at once would measure each other. Wait for it to finish or stop it, then run again`,
    );
  }
  server.on('error', () => {});
  // The lock must not keep a process alive on its own; the running worker does that.
  server.unref();
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
