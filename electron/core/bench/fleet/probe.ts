// Before anything runs on a fleet, every host is asked who it is: fio's client prints the
// server's probe reply ("hostname=vm, …, fio=fio-3.33, flags=1", client.c handle_probe) when
// it connects. A client and a server of different protocol versions (server.h FIO_SERVER_VER)
// refuse each other's commands, and that has failed silently (fio #620, #1095): the run
// seems to hang or to have no results. The probe version must equal this machine's fio; the
// protocol number is not printed by fio, and equal versions are the one sure way to equal
// protocols. A host that does not answer, or answers another version, is named and left out.
import { spawn } from 'node:child_process';
import type { FleetHost } from './hosts.ts';

/** A job that does no I/O (ioengine=null): connecting is the point, the job only makes fio send. */
export const PROBE_JOB = '[diskdelta-probe]\nioengine=null\nsize=1m\nbs=1m\nrw=read\n';

export interface ProbeReply {
  hostname: string;
  fioVersion: string;
}

/** The server's reply in the client's normal output, or null when there is none. */
export function parseProbeReply(stdout: string): ProbeReply | null {
  const m = /^hostname=([^,\n]*), be=\d+, [^\n]*?fio=([^,\n]+), flags=/m.exec(stdout);
  return m ? { hostname: m[1] as string, fioVersion: (m[2] as string).trim() } : null;
}

export type ProbeOutcome =
  | { host: FleetHost; status: 'ok'; reply: ProbeReply }
  | { host: FleetHost; status: 'version-differs'; reply: ProbeReply; message: string }
  | { host: FleetHost; status: 'no-answer'; message: string };

/** The verdict on one host from what its probe printed. */
export function judgeProbe(
  host: FleetHost,
  clientVersion: string,
  out: { stdout: string; stderr: string; timedOut: boolean },
): ProbeOutcome {
  const reply = parseProbeReply(out.stdout);
  if (!reply) {
    const said = out.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('fio:'))
      .slice(0, 2)
      .join('; ');
    const why = out.timedOut ? 'gave no probe reply in time' : said ? `did not answer (${said})` : 'did not answer with a probe reply';
    return {
      host,
      status: 'no-answer',
      message:
        `${host.key} ${why}: start "fio --server" there (or the SSH forward to it), ` +
        `and check it is the same fio as here (${clientVersion}): another protocol version fails without a word (fio #620). Left out; the other hosts run.`,
    };
  }
  if (reply.fioVersion !== clientVersion) {
    return {
      host,
      status: 'version-differs',
      reply,
      message:
        `${host.key} (${reply.hostname}) runs ${reply.fioVersion}, this machine runs ${clientVersion}: fio's client and server must ` +
        'speak the same protocol (FIO_SERVER_VER), and a mismatch has failed silently (fio #620, #1095). Install the same fio version on both. Left out; the other hosts run.',
    };
  }
  return { host, status: 'ok', reply };
}

/** Runs fio's client against one host with the probe job and judges what it printed. */
export function probeHost(
  host: FleetHost,
  opts: { fio: string; clientVersion: string; probeFile: string; timeoutMs: number },
): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const child = spawn(opts.fio, [`--client=${host.clientArg}`, '--output-format=normal', opts.probeFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(judgeProbe(host, opts.clientVersion, { stdout, stderr: `fio: ${error.message}`, timedOut }));
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(judgeProbe(host, opts.clientVersion, { stdout, stderr, timedOut }));
    });
  });
}
