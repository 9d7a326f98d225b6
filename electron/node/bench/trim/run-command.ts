// The system commands the root-only TRIM steps run (losetup, mount, fstrim, sync).
import { spawn } from 'node:child_process';
import { BenchError } from '../errors.ts';
import { appendTail, withStderr } from '../../../shared/model/stderr-tail.ts';

/**
 * Runs a command, resolving its exit code, stdout and stderr; never rejects for a non-zero exit.
 * `fds`: descriptors of this process the command gets as its 3, 4… (a mount point opened once).
 */
export function runCommand(
  command: string,
  args: string[],
  fds: number[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe', ...fds] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    // Bounded: a command's complaint is in its last lines, and a chatty one must not fill memory.
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr = appendTail(stderr, c)));
    child.on('error', (e) => resolve({ code: null, stdout, stderr: e.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command that must succeed: its stdout, or a BenchError naming the command and its complaint. */
export async function must(command: string, args: string[], fds: number[] = []): Promise<string> {
  const r = await runCommand(command, args, fds);
  if (r.code !== 0) throw new BenchError('internal', withStderr(`${command} ${args.join(' ')} failed (exit ${r.code})`, r.stderr, command));
  return r.stdout;
}
