// Before anything runs on a fleet, every host is asked who it is: fio's client prints the
// server's probe reply ("hostname=vm, …, fio=fio-3.33, flags=1", client.c handle_probe) when
// it connects. A client and a server of different protocol versions (server.h FIO_SERVER_VER)
// refuse each other's commands, and that has failed silently (fio #620, #1095): the run
// seems to hang or to have no results. The probe version must equal this machine's fio; the
// protocol number is not printed by fio, and equal versions are the one sure way to equal
// protocols. A host that does not answer, or answers another version, is named and left out.
//
// Before fio is started for a host, its name is resolved as fio's client resolves it
// (server.c fio_server_parse_host: the first IPv4 address getaddrinfo gives) and its port is
// connected to once: a refused or unreachable host is named at once, without a fio process of
// its own (1,000 refused hosts started 1,000 fio clients at once, and a busy machine called
// 600 of them silent: issue #38 item 19), and two names of one server are found by the
// address they reach (item 7). Hosts are probed a few at a time.
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
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
  | { host: FleetHost; status: 'ok'; reply: ProbeReply; address: string }
  | { host: FleetHost; status: 'version-differs'; reply: ProbeReply; message: string }
  | { host: FleetHost; status: 'no-answer'; message: string }
  /** Nothing listens at the host's address and port: the connection was refused. */
  | { host: FleetHost; status: 'refused'; message: string }
  /** The name does not resolve, or the address cannot be reached (no route). */
  | { host: FleetHost; status: 'unreachable'; message: string }
  /** Another line of the hosts file reaches the same address and port: one server, run once. */
  | { host: FleetHost; status: 'same-server'; sameAs: FleetHost; address: string; message: string };

/** What the probe says after a host it leaves out: the others still run. */
const LEFT_OUT = 'Left out; the other hosts run.';

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
        `and check it is the same fio as here (${clientVersion}): another protocol version fails without a word (fio #620). ${LEFT_OUT}`,
    };
  }
  if (reply.fioVersion !== clientVersion) {
    return {
      host,
      status: 'version-differs',
      reply,
      message:
        `${host.key} (${reply.hostname}) runs ${reply.fioVersion}, this machine runs ${clientVersion}: fio's client and server must ` +
        'speak the same protocol (FIO_SERVER_VER), and a mismatch has failed silently (fio #620, #1095). Install the same fio version on both. ' +
        LEFT_OUT,
    };
  }
  return { host, status: 'ok', reply, address: '' };
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

/** The address fio's client connects to for a host: the first of getaddrinfo's, IPv4 unless the name is IPv6. */
export async function resolveHost(host: FleetHost): Promise<{ address: string } | { error: string }> {
  try {
    const { address } = await lookup(host.host, { family: host.host.includes(':') ? 6 : 4 });
    return { address };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

export type Connectable = 'open' | 'refused' | 'timeout' | { error: string };

/** One TCP connection to address:port, closed as soon as it opens. */
export function tryConnect(address: string, port: number, timeoutMs: number): Promise<Connectable> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (outcome: Connectable) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    socket.once('connect', () => done('open'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'refused' : { error: error.code ?? error.message }),
    );
  });
}

/** The verdict on a host that could not be connected to, or null when its port is open. */
export function judgeConnect(host: FleetHost, address: string, outcome: Connectable, timeoutMs: number): ProbeOutcome | null {
  if (outcome === 'open') return null;
  const at = address === host.host ? host.key : `${host.key} (${address})`;
  if (outcome === 'refused') {
    return {
      host,
      status: 'refused',
      message: `${at} refused the connection: nothing listens on port ${host.port} there. Start "fio --server" on it (or the SSH forward to it). ${LEFT_OUT}`,
    };
  }
  const why = outcome === 'timeout' ? `did not accept a connection within ${timeoutMs / 1000} s` : `cannot be reached (${outcome.error})`;
  return {
    host,
    status: outcome === 'timeout' ? 'no-answer' : 'unreachable',
    message: `${at} ${why}: check the address, the network and any firewall between. ${LEFT_OUT}`,
  };
}

/** Runs fn over items, at most `limit` at a time, the results in the items' order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Connections tried at once: sockets are cheap, and a refused one answers in microseconds. */
export const CONNECT_AT_ONCE = 64;
/** fio clients started at once for the probe: each is a process; a 2-core machine runs a few well. */
export const PROBES_AT_ONCE = 8;

/**
 * Every host: resolved, connected to, then probed by fio's client. A host reaching the same
 * address and port as an earlier line is that server again: not probed, not run twice.
 */
export async function probeHosts(
  hosts: readonly FleetHost[],
  opts: { fio: string; clientVersion: string; probeFile: string; timeoutMs: number },
): Promise<ProbeOutcome[]> {
  const connectMs = Math.min(opts.timeoutMs, 10_000);
  const reached = await mapBounded(hosts, CONNECT_AT_ONCE, async (host): Promise<ProbeOutcome | { host: FleetHost; address: string }> => {
    const resolved = await resolveHost(host);
    if ('error' in resolved) {
      return {
        host,
        status: 'unreachable',
        message: `${host.key}: the name ${host.host} does not resolve (${resolved.error}): check its spelling, or give its address. ${LEFT_OUT}`,
      };
    }
    const failed = judgeConnect(host, resolved.address, await tryConnect(resolved.address, host.port, connectMs), connectMs);
    return failed ?? { host, address: resolved.address };
  });
  const first = new Map<string, FleetHost>();
  const toProbe: Array<{ host: FleetHost; address: string; index: number }> = [];
  const outcomes: Array<ProbeOutcome | null> = reached.map((r, index) => {
    if ('status' in r) return r;
    const at = `${r.address}:${r.host.port}`;
    const earlier = first.get(at);
    if (earlier) {
      return {
        host: r.host,
        status: 'same-server',
        sameAs: earlier,
        address: r.address,
        message: `${r.host.key} is the same server as ${earlier.key} (both reach ${at}): run once, as ${earlier.key}; its line is left out.`,
      };
    }
    first.set(at, r.host);
    toProbe.push({ ...r, index });
    return null;
  });
  const probed = await mapBounded(toProbe, PROBES_AT_ONCE, (p) => probeHost(p.host, opts));
  probed.forEach((outcome, i) => {
    const { index, address } = toProbe[i]!;
    outcomes[index] = outcome.status === 'ok' ? { ...outcome, address } : outcome;
  });
  return outcomes as ProbeOutcome[];
}
