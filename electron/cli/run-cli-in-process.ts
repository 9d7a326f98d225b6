// For tests: runs `diskdelta ARGS` through main() in this process and captures what it
// prints, which is much faster than spawning Node for every case.
import { main } from './main.ts';

export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  // Only strings are captured: the commands write strings, while node:test's child process
  // sends its reports to the parent as binary chunks on the same stdout, and those must pass.
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === 'string' ? ((stdout += chunk), true) : (out as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  process.stderr.write = (chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === 'string' ? ((stderr += chunk), true) : (err as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
