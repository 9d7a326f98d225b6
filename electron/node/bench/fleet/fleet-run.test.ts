// fleet run (issue #26 item 1): the hosts file, the probe's verdicts, and a real fleet of two
// fio servers on loopback addresses (127.0.0.26, 127.0.0.27) with a third address nobody
// answers on. Issue #38: one server named twice is run once (item 7), 1,000 refused hosts are
// named refused (item 19), and a host stopped mid-run leaves no test file unsaid (item 20),
// each against real servers on 127.0.0.22–25 and 127.0.0.29. The servers are started here and
// killed in after(), by PID only while the PID is still theirs (fixtures/fio-servers.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRESETS } from '../../../shared/catalog/presets.ts';
import { HostsFileError, networkWarning, parseHostsFile } from './hosts.ts';
import { judgeProbe } from './probe.ts';
import { runFleet } from './fleet-run.ts';
import { FLEET_FILE_PATTERN } from './fio-job-file.ts';
import { descendants, startFioServer, type FioServer } from './fixtures/fio-servers.ts';
import { signalOwn } from '../../../../scripts/own-process.ts';

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
  const hasFio = spawnSync('fio', ['--version']).status === 0;
  const servers: FioServer[] = [];
  const serve = (ip: string, at = port) => {
    const server = startFioServer(ip, at, dir);
    servers.push(server);
    return server;
  };
  before(() => {
    if (!hasFio) return;
    for (const ip of ['127.0.0.26', '127.0.0.27', '127.0.0.22', '127.0.0.23']) serve(ip);
  });
  after(() => {
    for (const server of servers) server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  /** The fleet's test files in the folder. */
  const testFiles = (folder: string) => readdirSync(folder).filter((n) => FLEET_FILE_PATTERN.test(n));

  it('runs the quick preset on the hosts that answer, one run per host, and names the one that does not', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    const hosts = parseHostsFile(`127.0.0.26,${port}\n127.0.0.27,${port}\n127.0.0.28,${port}\n`, 'hosts');
    const result = await runFleet({ hosts, preset: PRESETS.quick, folder: dir, sizeBytes: 8 * 1024 * 1024, durationSec: 0.3 });
    assert.deepEqual(
      result.probes.map((p) => p.status),
      ['ok', 'ok', 'refused'],
    );
    assert.deepEqual(
      result.runs.map((r) => r.sourceMeta['fio.host']),
      [`127.0.0.26:${port}`, `127.0.0.27:${port}`],
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
    assert.match(
      result.problems[0] ?? '',
      new RegExp(`^127\\.0\\.0\\.28:${port} refused the connection: nothing listens on port ${port} there`),
    );
    assert.deepEqual(testFiles(dir), [], 'each host removed its test file');
  });

  it('runs one server reached under two names once, and two servers of one machine twice', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    // 2130706454 is 127.0.0.22 written as one number: fio's client (getaddrinfo) and this
    // machine's resolver read it so, as they read localhost as 127.0.0.1.
    const hosts = parseHostsFile(`127.0.0.22,${port}\n2130706454,${port}\n127.0.0.23,${port}\n`, 'hosts');
    const result = await runFleet({ hosts, preset: PRESETS.quick, folder: dir, sizeBytes: 8 * 1024 * 1024, durationSec: 0.3 });
    assert.deepEqual(
      result.probes.map((p) => p.status),
      ['ok', 'same-server', 'ok'],
    );
    assert.deepEqual(result.notes, [
      `2130706454:${port} is the same server as 127.0.0.22:${port} (both reach 127.0.0.22:${port}): run once, as 127.0.0.22:${port}; its line is left out.`,
    ]);
    assert.deepEqual(result.problems, []);
    // Both servers report this machine's hostname: a name alone does not make one server.
    const probes = result.probes.filter((p) => p.status === 'ok');
    assert.equal(probes[0]?.reply.hostname, probes[1]?.reply.hostname);
    assert.deepEqual(
      result.runs.map((r) => r.sourceMeta['fio.host']),
      [`127.0.0.22:${port}`, `127.0.0.23:${port}`],
    );
  });

  it('names 1,000 refused hosts refused, probing a bounded number at once', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    // 127.0.0.29 is this test's and nothing listens on it: every port refuses.
    const lines = Array.from({ length: 1000 }, (_, i) => `127.0.0.29,${40_000 + i}`);
    const started = process.hrtime.bigint();
    const result = await runFleet({ hosts: parseHostsFile(lines.join('\n'), 'hosts'), preset: PRESETS.quick, folder: dir });
    console.log(`1,000 refused hosts probed in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(2)} s`);
    assert.deepEqual([...new Set(result.probes.map((p) => p.status))], ['refused']);
    assert.equal(result.problems.length, 1000);
    result.problems.forEach((p, i) => assert.match(p, new RegExp(`^127\\.0\\.0\\.29:${40_000 + i} refused the connection`)));
    assert.deepEqual(result.runs, []);
  });

  /** Runs the fleet on two fresh servers, kills `which` of the victim's processes once its test file is laid out. */
  async function stopMidRun(at: number, which: 'its run' | 'the whole server') {
    const victim = serve('127.0.0.24', at);
    const other = serve('127.0.0.25', at);
    const folder = mkdtempSync(join(dir, 'stop-'));
    const sizeBytes = 16 * 1024 * 1024;
    const hosts = parseHostsFile(`${victim.line}\n${other.line}\n`, 'hosts');
    const running = runFleet({ hosts, preset: PRESETS.quick, folder, sizeBytes, durationSec: 2 });
    // Mid-run: a test file laid out whole and the victim serving a run; then half a second more
    // of the first job's 2 s, by which both hosts (started together) have laid theirs out.
    let killed = 0;
    for (let i = 0; i < 600 && killed === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const laidOut = testFiles(folder).filter((n) => statSync(join(folder, n)).size >= sizeBytes);
      if (laidOut.length === 0 || descendants(victim.proc).length === 0) continue;
      await new Promise((r) => setTimeout(r, 500));
      const run = descendants(victim.proc);
      const targets = which === 'its run' ? run : [victim.proc, ...run];
      killed = targets.filter((p) => signalOwn(p, 'SIGKILL')).length;
    }
    assert.ok(killed > 0, 'the victim’s run was found and killed within 30 s');
    return { result: await running, folder, victim };
  }

  it('removes the test file of a host whose run was killed, and says so', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    const { result, folder, victim } = await stopMidRun(port, 'its run');
    assert.equal(result.runs.length, 1, 'the other host’s results are kept');
    const said = result.problems.find((p) => p.startsWith(`${victim.line.replace(',', ':')} stopped during the run`));
    assert.match(said ?? '', new RegExp(`its test file ${folder}/\\.diskdelta-fleet-[0-9a-f]{32}\\.tmp was removed\\.$`));
    assert.deepEqual(testFiles(folder), [], 'no test file left');
  });

  it('names the file a host left when the host is gone, with the command that removes it', async (t) => {
    if (!hasFio) return t.skip('fio missing');
    const { result, folder, victim } = await stopMidRun(port + 1, 'the whole server');
    const left = testFiles(folder);
    assert.equal(left.length, 1, 'the victim’s file stays: nothing on its host runs to remove it');
    const path = join(folder, left[0]!);
    const key = `${victim.ip}:${victim.port}`;
    const said = result.problems.find((p) => p.startsWith(`${key} stopped during the run`));
    assert.equal(
      said,
      `${key} stopped during the run and cannot be reached (fio: connect: Connection refused; fio: failed to connect to ${key}): ` +
        `its test file ${path} (up to ${16 * 1024 * 1024} bytes) may be left there. Remove it on that host: rm -f -- '${path}'`,
    );
  });
});
