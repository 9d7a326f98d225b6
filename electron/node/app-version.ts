// The version of DiskDelta, from package.json: `diskdelta --version` and the reports' footer.
import { readFile } from 'node:fs/promises';

export async function appVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
