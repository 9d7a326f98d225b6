// fleet run (issue #26 item 1): the hosts file, the probe's verdicts, and a real fleet of two
// fio servers on loopback addresses (127.0.0.2, 127.0.0.3) with a third address nobody
// answers on. The servers are started here and stopped in after().
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRESETS } from '../presets.ts';
import { HostsFileError, networkWarning, parseHostsFile } from './hosts.ts';
import { judgeProbe } from './probe.ts';
import { runFleet } from './fleet-run.ts';
import { ownProcess, signalOwn, type OwnProcess } from '../../../../scripts/own-process.ts';

// What fio 3.33's client printed here for a server on 127.0.0.2 (fio --client=127.0.0.2,8765 probe.fio).
const PROBE_OUT = 'hostname=vm, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1\n<vm> diskdelta-probe: (g=0): rw=read\n';

describe('fleet hosts file', () => {
  it('reads fio’s host[,port] lines, skips comments, and names the line of a bad or repeated host', () => {
    const hosts = parseHostsFile('# laptops behind ssh -L\nlocalhost,8766\nlocalhost,8767  # bob\n\n10.1.2.3\n', 'hosts');
    assert.deepEqual(
      hosts.map((h) => [h.key, h.clientArg, h.loopback, h.line]),
      [
        ['localhost:8766', 'localhost,8766', true, 2],
        ['localhost:8767', 'localhost,8767', true, 3],
        ['10.1.2.3:8765', '10.1.2.3,8765', false, 5],
      ],
    );
    assert.throws(
      () => parseHostsFile('a\nhost one\n', 'hosts'),
      (e: unknown) => e instanceof HostsFileError && /^hosts:2: "host one"/.test(e.message),
    );
    assert.throws(() => parseHostsFile('a,8765\na\n', 'hosts'), /hosts:2: a:8765 is already on line 1/);
    assert.throws(() => parseHostsFile('a,70000\n', 'hosts'), /port 70000/);
    assert.throws(() => parseHostsFile('--server\n', 'hosts'), /is not a host/);
  });

  it('says so when a host is reached over the network, where fio’s server has no authentication', () => {
    assert.equal(networkWarning(parseHostsFile('localhost,8766\n127.0.0.2\n', 'h')), null);
    assert.match(
      networkWarning(parseHostsFile('localhost,8766\n10.1.2.3\n', 'h')) ?? '',
      /^10\.1\.2\.3:8765 is reached over the network: .*no authentication.*ssh -L/,
    );
  });
});

describe('fleet probe', () => {
  const [host] = parseHostsFile('127.0.0.2\n', 'h');
  it('accepts a host running this machine’s fio, and names one that runs another version', () => {
    assert.equal(judgeProbe(host!, 'fio-3.33', { stdout: PROBE_OUT, stderr: '', timedOut: false }).status, 'ok');
    const other = judgeProbe(host!, 'fio-3.39', { stdout: PROBE_OUT, stderr: '', timedOut: false });
    assert.equal(other.status, 'version-differs');
    assert.match(
      'message' in other ? other.message : '',
      /^127\.0\.0\.2:8765 \(vm\) runs fio-3\.33, this machine runs fio-3\.39: .*FIO_SERVER_VER/,
    );
  });
  it('names a host that does not answer, with fio’s own words', () => {
    const silent = judgeProbe(host!, 'fio-3.33', {
      stdout: '',
      stderr: 'fio: connect: Connection refused\nfio: failed to connect to 127.0.0.2:8765\n',
      timedOut: false,
    });
    assert.equal(silent.status, 'no-answer');
    assert.match(
      'message' in silent ? silent.message : '',
      /^127\.0\.0\.2:8765 did not answer \(fio: connect: Connection refused; .*the other hosts run/,
    );
  });
});

describe('fleet run against fio servers on loopback', () => {
  const port = 20_000 + (process.pid % 20_000);
  const dir = mkdtempSync(join(tmpdir(), 'dd-fleet-run-'));
  const pidFiles = ['127.0.0.2', '127.0.0.3'].map((ip) => ({ ip, pidFile: join(dir, `${ip}.pid`) }));
  /** The servers, held by pid and start time from the moment they wrote their pid files (scripts/own-process.ts). */
  const servers: Array<OwnProcess | null> = [];
  const hasFio = spawnSync('fio', ['--version']).status === 0;
  before(() => {
    if (!hasFio) return;
    for (const { ip, pidFile } of pidFiles) {
      const r = spawnSync('fio', [`--server=ip:${ip},${port}`, `--daemonize=${pidFile}`]);
      assert.equal(r.status, 0, `fio --server on ${ip}: ${String(r.stderr)}`);
      servers.push(ownProcess(Number(readFileSync(pidFile, 'utf8').trim())));
    }
  });
  after(() => {
    for (const server of servers) signalOwn(server, 'SIGTERM'); // none when fio is missing; a server gone is not signalled
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the quick preset on the hosts that answer, one run per host, and names the one that does not', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    const hosts = parseHostsFile(`127.0.0.2,${port}\n127.0.0.3,${port}\n127.0.0.4,${port}\n`, 'hosts');
    const result = await runFleet({ hosts, preset: PRESETS.quick, folder: dir, sizeBytes: 8 * 1024 * 1024, durationSec: 0.3 });
    assert.deepEqual(
      result.probes.map((p) => p.status),
      ['ok', 'ok', 'no-answer'],
    );
    assert.deepEqual(
      result.runs.map((r) => r.sourceMeta['fio.host']),
      [`127.0.0.2:${port}`, `127.0.0.3:${port}`],
    );
    for (const run of result.runs) {
      assert.deepEqual(
        run.results.map((r) => r.test),
        PRESETS.quick.tests,
      );
      assert.ok(run.results.every((r) => (r.bytesPerSec ?? 0) > 0));
      assert.equal(run.settings.preset, 'quick');
    }
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0] ?? '', new RegExp(`^127\\.0\\.0\\.4:${port} did not answer`));
  });
});
