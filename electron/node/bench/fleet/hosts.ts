// The hosts of a fleet, one per line as fio's own --client=FILE reads them (client.c): a host
// name or address, optionally ",PORT" (fio's server default is 8765). `# …` comments and blank
// lines are skipped. The default way in is an SSH forward the user already has
// (`ssh -L 8766:localhost:8765 host`, then `localhost,8766` here): fio's server has no
// authentication, so a host reached over the network is said, never taken quietly.
export const FIO_SERVER_PORT = 8765;

export interface FleetHost {
  host: string;
  port: number;
  /** host:port, as the imported runs carry it (fio.host). */
  key: string;
  /** The argument of fio's --client: host,port. */
  clientArg: string;
  /** Reached on this machine's loopback: through an SSH forward, or a server of this machine. */
  loopback: boolean;
  line: number;
}

export class HostsFileError extends Error {
  constructor(fileName: string, line: number, problem: string) {
    super(`${fileName}:${line}: ${problem}`);
    this.name = 'HostsFileError';
  }
}

/** Loopback names and addresses: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function parseHostsFile(text: string, fileName: string): FleetHost[] {
  const hosts: FleetHost[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const entry = raw.replace(/#.*$/, '').trim();
    if (entry === '') return;
    const m = /^(?:ip:|ip4:|ip6:)?([A-Za-z0-9._:-]+?)(?:,(\d+))?$/.exec(entry);
    if (!m || (m[1] as string).startsWith('-')) {
      throw new HostsFileError(
        fileName,
        line,
        `"${entry}" is not a host: write one host name or address per line, optionally ",PORT" (localhost,8766)`,
      );
    }
    const host = m[1] as string;
    const port = m[2] === undefined ? FIO_SERVER_PORT : Number(m[2]);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HostsFileError(fileName, line, `port ${m[2]} is not 1–65535`);
    const key = `${host}:${port}`;
    const before = seen.get(key);
    if (before !== undefined) throw new HostsFileError(fileName, line, `${key} is already on line ${before}: each host once`);
    seen.set(key, line);
    hosts.push({ host, port, key, clientArg: `${host},${port}`, loopback: isLoopback(host), line });
  });
  if (hosts.length === 0) throw new HostsFileError(fileName, 1, 'no host in the file: one host per line, optionally ",PORT"');
  return hosts;
}

/** What to say before reaching hosts over the network: fio's server cannot tell who connects. */
export function networkWarning(hosts: readonly FleetHost[]): string | null {
  const remote = hosts.filter((h) => !h.loopback);
  if (remote.length === 0) return null;
  return (
    `${remote.map((h) => h.key).join(', ')} ${remote.length === 1 ? 'is' : 'are'} reached over the network: fio --server has no ` +
    'authentication, anyone who can reach that port can run jobs there. Prefer an SSH forward (ssh -L 8766:localhost:8765 HOST, then ' +
    '"localhost,8766" in the hosts file) with the server listening on its loopback only (fio --server=ip:127.0.0.1).'
  );
}
