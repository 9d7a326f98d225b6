// An upgrade assessment through the CLI on the shipped references: kept in the library across
// processes (a reboot between its steps is a new process and the same file), each step set and
// shown with what comes next, and its report's page 1 deciding.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../run-cli-in-process.ts';
import { wholeSpansAsText } from '../../shared/report/whole-text.ts';
import { openLibrary } from '../../node/store/library.ts';
import { deviceMapperMissing } from '../../node/crypto/throwaway-held.ts';

test('an assessment is started with the before run, waits in the library for the after run, and its report decides on page 1', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-assess-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'library.sqlite');
  assert.equal((await runCli(['import', '--reference', '--db', db])).code, 0);

  const started = await runCli(['assess', 'start', '2011 laptop: HDD → SSD', '--before', '1', '--db', db]);
  assert.equal(started.code, 0, started.stderr);
  assert.match(started.stdout, /^Assessment 1: 2011 laptop: HDD → SSD/);
  assert.match(
    started.stdout,
    /✔ 1\. The current disk \(before\): run 1\n +→ 2\. The new disk \(after\): after the swap \(the assessment waits in the library across reboots\): diskdelta run --target DIR, then diskdelta assess set 1 --after RUN/,
  );

  // "After the reboot": another open of the same file finds it.
  const library = openLibrary({ dbPath: db });
  assert.deepEqual(
    library.listAssessments().map((a) => ('unreadable' in a ? [a.id, a.unreadable] : [a.id, a.label, a.before, a.after])),
    [[1, '2011 laptop: HDD → SSD', 1, null]],
  );
  library.close();

  const early = await runCli(['assess', 'report', '1', '--html', '--out', join(dir, 'early.html'), '--db', db]);
  assert.equal(early.code, 2);
  assert.match(early.stderr, /assessment 1 has no after run yet: diskdelta assess show 1 says what to do/);

  const set = await runCli(['assess', 'set', '1', '--after', '2', '--encrypted', '3', '--discard', '4,5', '--db', db]);
  assert.equal(set.code, 0, set.stderr);
  assert.match(
    set.stdout,
    /✔ 3\. The cost of encryption: the published story: run 3, a reference's encrypted run beside the same reference as after \(another machine's, never this machine's cost\)\n +✔ 4\. TRIM \(audit and discard cost\): discard cost: runs 4 and 5\n +→ 5\. How big an SSD \(working set\): not scanned: diskdelta working-set DIR, then diskdelta assess set 1 --working-set RUN\n +6\. The report: diskdelta assess report 1 --out assessment\.pdf/,
  );

  const bad = await runCli(['assess', 'set', '1', '--after', '99', '--db', db]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /no run 99 in the library for the after step \('diskdelta list' shows the ids\)/);
  const badPair = await runCli(['assess', 'set', '1', '--discard', '4', '--db', db]);
  assert.equal(badPair.code, 2);
  assert.match(badPair.stderr, /--discard '4' needs two run ids, without then with discard/);

  const out = join(dir, 'assessment.html');
  const report = await runCli(['assess', 'report', '1', '--html', '--out', out, '--db', db]);
  assert.equal(report.code, 0, report.stderr);
  const html = readFileSync(out, 'utf8');
  // Page 1 decides (report/first-page.ts): the verdicts of analysis/verdicts.ts, before everything else.
  const first = html.indexOf('data-testid="report-first-page"');
  assert.ok(first > 0, 'page 1 is there');
  assert.equal(html.lastIndexOf('<section', first), html.indexOf('<section'), 'page 1 is the first section');
  const page = wholeSpansAsText(html.slice(first, html.indexOf('</section>', first)));
  assert.match(page, /#1 Laptop hard disk[^<]*\(published reference\)/);
  assert.match(page, /Programs will start many times faster: seeks 151\.4 seeks\/s → 10,524 seeks\/s \(under-resolved\), ×69\.5 faster/);
  // Run 3 is a published encrypted run beside its own write-up's SSD: never this machine's cost,
  // shown as the published story beside.
  assert.match(page, /Under dm-crypt: the published story/);
  assert.doesNotMatch(page, /left out/);
  assert.match(
    page,
    /The published story \(2011, another machine\): the same drive&#x27;s sequential read fell from 135\.9 MB\/s to 71\.5 MB\/s/,
  );
  assert.match(page, /Whether your data fits was not measured/);
  assert.match(page, /Online discard costs 1\.99 s per tree delete on the published 2013 machine \(0\.71 s without, 2\.70 s with\)/);
  assert.match(html, /<h1>Upgrade assessment: 2011 laptop: HDD → SSD<\/h1>/);
  assert.ok(html.includes('data-chart-type="discard-table"'), 'the discard pair in the seed’s 2×2');

  // A deleted run empties its step, which says which run went; the assessment stays.
  assert.equal((await runCli(['delete', '3', '--db', db])).code, 0);
  const shown = await runCli(['assess', 'show', '1', '--db', db]);
  assert.match(
    shown.stdout,
    /→ 3\. The cost of encryption: run 3 "Intel 320 SSD \+ dm-crypt[^"]*" was deleted from the library on \d{4}-\d\d-\d\d, so this step is empty again; not measured: the report forecasts it/,
  );
  const listed = await runCli(['assess', 'list', '--db', db]);
  assert.match(listed.stdout, /^ +1 {2}2011 laptop: HDD → SSD {2}\(3 of 5 steps done, then the report\)$/m);
  // `show` lists six steps and counts as `list` (and the app: assessmentProgress) does.
  assert.match(shown.stdout, /^Assessment 1: .*: 3 of 5 steps done, then the report$/m);
  assert.equal(shown.stdout.match(/^ {2}[✔→ ] \d\. /gm)?.length, 6);
  // Step 3 says what this kernel can do: where it has no device-mapper, it does not tell the user
  // to run `diskdelta encryption` here (New run reads the same fact).
  const missing = await deviceMapperMissing();
  if (missing)
    assert.match(
      shown.stdout,
      new RegExp(`it cannot be measured here: ${missing.replace(/[()]/g, '\\$&')}\\. On a kernel with device-mapper: diskdelta encryption`),
    );
  else assert.match(shown.stdout, /; to measure, diskdelta encryption --target DIR/);
  // A run that is not the new disk under dm-crypt is refused for the step (#39), and the step stays as it was.
  const plain = await runCli(['assess', 'set', '1', '--encrypted', '2', '--db', db]);
  assert.equal(plain.code, 2);
  assert.match(
    plain.stderr,
    /run 2 "Intel 320 SSD[^"]*" cannot be the new disk under dm-crypt: nothing in it says it was measured through dm-crypt/,
  );
  assert.match((await runCli(['assess', 'show', '1', '--db', db])).stdout, /deleted/);
  // The published story's encrypted run, kept again, sets the step again: the deletion is no longer said.
  assert.equal((await runCli(['import', '--reference', '--db', db])).code, 0);
  assert.equal((await runCli(['assess', 'set', '1', '--encrypted', '6', '--db', db])).code, 0);
  assert.doesNotMatch((await runCli(['assess', 'show', '1', '--db', db])).stdout, /deleted/);
});
