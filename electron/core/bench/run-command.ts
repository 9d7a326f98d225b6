// The system commands the root-only TRIM steps run (losetup, mount, fstrim, sync).
import { spawn } from 'node:child_process';
import { BenchError } from './errors.ts';

/** Runs a command, resolving its exit code, stdout and stderr; never rejects for a non-zero exit. */
export function runCommand(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (e) => resolve({ code: null, stdout, stderr: e.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command that must succeed: its stdout, or a BenchError naming the command and its complaint. */
export async function must(command: string, args: string[]): Promise<string> {
  const r = await runCommand(command, args);
  if (r.code !== 0) throw new BenchError('internal', `${command} ${args.join(' ')} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout;
}
