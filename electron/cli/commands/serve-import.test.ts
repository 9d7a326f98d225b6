// Browser mode while a large import runs (#23 item 6): `library.import` of a 60,000-job fio
// file once left every other client unanswered until it finished. The import now says its
// phases (import.progress); once it has said it is parsing, another client's request must be
// answered before the import's own answer comes. Ordering, not a duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { manyJobsFio } from '../../node/formats/fixtures/many-jobs-fio.ts';

const CLI = fileURLToPath(new URL('../../../bin/diskdelta.js', import.meta.url));

async function startServe(t: { after(fn: () => void): void }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dd-serve-import-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>DiskDelta test page</title>');
  const child = spawn(process.execPath, [CLI, 'serve', '--db', join(dir, 'lib.sqlite')], {
    env: { ...process.env, DISKDELTA_RENDERER_DIR: dir, DISPLAY: '', WAYLAND_DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/(127\.0\.0\.1:\d+)\/\?token=([\w-]{20,})/.exec(out);
      if (m) resolve(`ws://${m[1]}/api?token=${m[2]}`);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { origin: new URL(url.replace(/^ws/, 'http')).origin } });
    ws.on('open', () => resolve(ws));
    ws.on('error', reject);
  });
}

type Message = {
  type: string;
  id?: number;
  event?: string;
  payload?: { phase?: string };
  result?: { ok: boolean; data?: { ids?: number[] } };
};

test('serve answers another client while a 60,000-job import runs', { timeout: 600_000 }, async (t) => {
  const url = await startServe(t);
  const importer = await open(url);
  const other = await open(url);
  t.after(() => {
    importer.close();
    other.close();
  });
  const order: string[] = [];
  const done = new Promise<Message>((resolve) => {
    importer.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as Message;
      if (m.type === 'result' && m.id === 1) {
        order.push('import answered');
        resolve(m);
      }
    });
  });
  let asked = false;
  const otherAnswered = new Promise<void>((resolve) => {
    other.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as Message;
      // The first progress event: the server has the whole file and is working on it.
      if (m.type === 'event' && m.event === 'import.progress' && m.payload?.phase === 'parsing' && !asked) {
        asked = true;
        order.push('import parsing');
        other.send(JSON.stringify({ type: 'invoke', id: 7, procedure: 'runs.active', input: {} }));
      }
      if (m.type === 'result' && m.id === 7) {
        order.push('other answered');
        resolve();
      }
    });
  });
  const contentBase64 = Buffer.from(manyJobsFio(60_000, 'distinct')).toString('base64');
  importer.send(JSON.stringify({ type: 'invoke', id: 1, procedure: 'library.import', input: { fileName: 'many.json', contentBase64 } }));
  const result = await done;
  assert.equal(result.result?.ok, true, JSON.stringify(result).slice(0, 500));
  assert.equal(result.result.data?.ids?.length, 1);
  assert.deepEqual(order.slice(0, 3), ['import parsing', 'other answered', 'import answered']);
  await otherAnswered;
});
