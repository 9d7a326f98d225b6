// `diskdelta fleet run`: the preset as one fio job file per host (each with its own unpredictable
// test file name: fio-job-file.ts), every host probed first (probe.ts), then one
// `fio --client=H1 JOB1 --client=H2 JOB2 …` over the hosts that answered with this machine's
// fio, and its JSON imported as one run per host (formats/fio-client-json.ts). A host left out
// or silent in the output is named with what to do; the others' results are kept. A host that
// stopped during the run is asked once more to remove its test file (cleanup-job.ts); where it
// cannot be asked, the file left there is named.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '../../../shared/model/results.ts';
import { parseFioFile } from '../../formats/fio-client-json.ts';
import type { Preset } from '../../../shared/catalog/presets.ts';
import { fleetJobFile, fleetTestFileName, type FleetJobFile } from './fio-job-file.ts';
import type { FleetHost } from './hosts.ts';
import { PROBE_JOB, probeHosts, type ProbeOutcome } from './probe.ts';
import { removeLeftTestFiles } from './cleanup-job.ts';

export interface FleetRunOptions {
  hosts: FleetHost[];
  preset: Preset;
  /** Where each host makes its test file. */
  folder: string;
  sizeBytes?: number;
  durationSec?: number;
  fio?: string;
  /** How long a host may take to answer the probe. */
  probeTimeoutMs?: number;
  now?: Date;
}

export interface FleetRunResult {
  runs: RunRecord[];
  probes: ProbeOutcome[];
  jobFile: FleetJobFile;
  /** One line per host that gave no results, naming it and what to do. */
  problems: string[];
  /** Lines that change no result: a host named twice in the hosts file. */
  notes: string[];
}

export class FleetError extends Error {
  override name = 'FleetError';
}

/** This machine's fio version ("fio-3.33"), or a FleetError saying how to get fio. */
export function localFioVersion(fio = 'fio'): string {
  const r = spawnSync(fio, ['--version'], { encoding: 'utf8' });
  const version = r.status === 0 ? r.stdout.trim() : '';
  if (!/^fio-\S+$/.test(version))
    throw new FleetError(`cannot run ${fio} --version here: install fio (apt-get install fio), the same version the hosts run`);
  return version;
}

function runClient(fio: string, args: string[]): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(fio, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}

export async function runFleet(opts: FleetRunOptions): Promise<FleetRunResult> {
  const fio = opts.fio ?? 'fio';
  const clientVersion = localFioVersion(fio);
  const jobOpts = { folder: opts.folder, sizeBytes: opts.sizeBytes, durationSec: opts.durationSec };
  // Checks the folder and the preset before any host is reached.
  const jobFile = fleetJobFile(opts.preset, jobOpts);
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-fleet-'));
  try {
    const probeFile = join(dir, 'probe.fio');
    writeFileSync(probeFile, PROBE_JOB);
    const probes = await probeHosts(opts.hosts, { fio, clientVersion, probeFile, timeoutMs: opts.probeTimeoutMs ?? 30_000 });
    const notes = probes.flatMap((p) => (p.status === 'same-server' ? [p.message] : []));
    const problems = probes.flatMap((p) => (p.status === 'ok' || p.status === 'same-server' ? [] : [p.message]));
    const ready = probes.filter((p) => p.status === 'ok').map((p) => p.host);
    if (ready.length === 0) return { runs: [], probes, jobFile, problems, notes };
    // Each host its own job file and test file name: a name one host could learn says nothing
    // of another's, and two names of one server that were not found alike never share a file.
    const perHost = ready.map((host, i) => {
      const job = fleetJobFile(opts.preset, { ...jobOpts, fileName: fleetTestFileName() });
      const jobPath = join(dir, `host-${i}.fio`);
      writeFileSync(jobPath, job.text);
      return { host, job, jobPath };
    });
    const args = ['--output-format=json', ...perHost.flatMap((h) => [`--client=${h.host.clientArg}`, h.jobPath])];
    const out = await runClient(fio, args);
    let runs: RunRecord[] = [];
    try {
      runs = parseFioFile(out.stdout, `fio --client (${ready.length} hosts)`, opts.now ?? new Date());
    } catch (error) {
      const said = out.stderr.trim().split('\n').slice(-3).join('; ');
      const left = await removeLeftTestFiles(perHost, { fio, dir });
      throw new FleetError(
        `fio --client gave no results to read (${error instanceof Error ? error.message : String(error)})${said ? `; fio said: ${said}` : ''}` +
          (left.length > 0 ? `\n${left.join('\n')}` : ''),
      );
    }
    // fio writes each host's entries as they arrive: put them back in the hosts file's order.
    const order = new Map(ready.map((h, i) => [h.key, i]));
    runs.sort((a, b) => (order.get(a.sourceMeta['fio.host'] ?? '') ?? 0) - (order.get(b.sourceMeta['fio.host'] ?? '') ?? 0));
    const reported = new Set(runs.map((r) => r.sourceMeta['fio.host']));
    const incomplete = new Set<FleetHost>();
    for (const host of ready) {
      if (!reported.has(host.key)) {
        incomplete.add(host);
        problems.push(
          `${host.key} answered the probe but reported no results: it stopped or lost its connection during the run. ` +
            'Its results are lost; run the fleet again for it alone (a hosts file with that line).',
        );
      }
    }
    const expected = new Set(jobFile.tests);
    for (const run of runs) {
      run.settings.preset = opts.preset.name;
      const missing = [...expected].filter((t) => !run.results.some((r) => r.test === t));
      if (missing.length > 0) {
        const host = ready.find((h) => h.key === run.sourceMeta['fio.host']);
        if (host) incomplete.add(host);
        problems.push(
          `${run.sourceMeta['fio.host']} reported only part of the preset (missing ${missing.join(', ')}): it stopped during the run; the tests it finished are kept.`,
        );
      }
    }
    // The last job removes the test file (unlink=1); a host that stopped before it did not.
    problems.push(
      ...(await removeLeftTestFiles(
        perHost.filter((h) => incomplete.has(h.host)),
        { fio, dir },
      )),
    );
    return { runs, probes, jobFile, problems, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
