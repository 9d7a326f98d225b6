import { useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { formatIops, formatThroughput } from '../../../electron/shared/analysis/units.ts';
import { testTitle } from '../../../electron/shared/model/catalog.ts';
import { EmptyState, ErrorNote, formatEta, PageHeader, WarningList } from '../components/common.tsx';
import { useRuns } from '../stores/index.ts';
import type { LiveSample } from '../stores/runs.ts';
import { useStoresApi } from '../stores/use-stores-api.ts';
import { LiveChart } from '../charts/live-chart-view.ts';
import {
  clampToFloor,
  latestSample,
  liveChartName,
  liveScale,
  liveSeries,
  liveLineStyle as lineStyle,
  runAnnouncement,
  stoppedText,
  testStates,
} from '../view/live-view.ts';

const NO_SAMPLES: LiveSample[] = [];

const STATE_MARK = { done: '✓', running: '▶', cancelled: '✕', failed: '✕' } as const;

const STATUS_TEXT = { running: 'Running', cancelling: 'Cancelling…', done: 'Finished', cancelled: 'Cancelled', failed: 'Failed' } as const;

export function LiveRunPage() {
  const stores = useStoresApi();
  const run = useRuns((s) => (s.currentRunId ? (s.runs[s.currentRunId] ?? null) : null));
  const statusHeading = useRef<HTMLHeadingElement>(null);
  const active = run?.status === 'running' || run?.status === 'cancelling';
  // The Cancel button goes when the run ends: the keyboard's focus then moves to the run's status
  // ("Cancelled", "Finished"), not to the top of the page.
  // The chart follows the samples a moment later where the page is busy: React drops the renders
  // that newer samples made stale, so a loaded machine's tabs keep up instead of queueing them.
  const samples = useDeferredValue(run?.samples ?? NO_SAMPLES);
  const series = useMemo(() => liveSeries(samples), [samples]);
  const scale = useMemo(() => liveScale(series), [series]);
  const drawn = useMemo(() => clampToFloor(series, scale), [series, scale]);
  const wasActive = useRef(active);
  useEffect(() => {
    const ended = wasActive.current && !active;
    wasActive.current = active;
    if (ended && (document.activeElement === document.body || document.activeElement === null)) statusHeading.current?.focus();
  }, [active]);
  if (!run) {
    return (
      <>
        <PageHeader title="Live run" />
        <EmptyState title="No run in progress">
          <p>
            Start one from <a href="#/new">New run</a>; its progress and live throughput appear here.
          </p>
        </EmptyState>
      </>
    );
  }
  const p = run.progress;
  const stopped = stoppedText(run);
  // A test that keeps what it measured when stopped (the sustained write) ends "done" after a
  // Cancel: saved, with the orchestrator's `stopped` warning. Said as stopped, not finished.
  const keptStopped = run.status === 'done' && run.warnings.some((w) => w.code === 'stopped' || w.code === 'cut-short');
  const percent = run.status === 'done' && !keptStopped ? 100 : Math.round((p?.fraction ?? 0) * 100);
  const last = latestSample(run);
  return (
    <>
      <PageHeader title="Live run">
        {active ? (
          <>
            {/* As `run --keep-finished`: the finished tests saved, the run marked as cut short (#40 item 6). */}
            <button
              aria-disabled={run.status === 'cancelling'}
              data-testid="stop-keep"
              title="Stop now and save the tests that have finished, marked as cut short"
              onClick={() => run.status === 'running' && void stores.runs.getState().cancel(run.runId, true)}
            >
              Stop, keep finished tests
            </button>
            <button
              className="danger"
              aria-disabled={run.status === 'cancelling'}
              onClick={() => run.status === 'running' && void stores.runs.getState().cancel(run.runId)}
            >
              {run.status === 'cancelling' ? 'Cancelling…' : 'Cancel'}
            </button>
          </>
        ) : null}
      </PageHeader>
      <p className="lead" data-testid="run-lead">
        <strong>{run.spec.label || 'Unlabelled run'}</strong> on <code>{run.spec.target}</code>
        {run.spec.preset ? <> · preset {run.spec.preset}</> : null}
      </p>
      <section aria-labelledby="progress-h">
        <h2 id="progress-h" tabIndex={-1} ref={statusHeading}>
          <span data-testid="run-status">{keptStopped ? 'Stopped, kept' : STATUS_TEXT[run.status]}</span>
          {active && p ? <span className="muted"> · {formatEta(p.etaSec)}</span> : null}
        </h2>
        {stopped ? (
          <p data-testid="run-stopped">{stopped}</p>
        ) : (
          <div
            className="progress"
            role="progressbar"
            aria-label="Whole run"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            data-testid="run-progress"
          >
            <div style={{ width: `${percent}%` }} />
          </div>
        )}
        {/* Screen readers hear a change of test or phase, not every percent (the bar has the figure). */}
        <p className="sr-only" aria-live="polite" data-testid="run-announcement">
          {runAnnouncement(run)}
        </p>
        <p hidden={stopped !== null}>
          {percent} %
          {active && p?.test ? (
            <>
              {' '}
              · {testTitle(p.test)} ({p.testIndex + 1} of {p.testCount}) · {p.phase}
              {p.run > 0 ? `, run ${p.run} of ${p.runs}` : ''}
            </>
          ) : null}
          {active && p && !p.test ? <> · {p.phase}</> : null}
        </p>
        {testStates(run).length > 0 ? (
          <ol className="tests" aria-label="Tests">
            {testStates(run).map((t) => (
              <li key={t.test} className={t.state}>
                <span aria-hidden="true">{STATE_MARK[t.state]}</span> {t.title}
                <span className="sr-only"> ({t.state})</span>
              </li>
            ))}
            {p && active && p.testCount > run.tests.length ? <li className="waiting">+ {p.testCount - run.tests.length} more</li> : null}
          </ol>
        ) : null}
      </section>
      {run.status === 'done' && run.recordId != null ? (
        <div className="banner ok" role="status" data-testid="run-saved">
          {keptStopped ? 'Stopped: what it measured so far is kept. ' : ''}Saved to the library as run #{run.recordId}.{' '}
          <a href="#/library">Open the library</a> or <a href="#/compare">compare it</a>.
        </div>
      ) : null}
      {run.status === 'cancelled' ? (
        <div className="banner warn" role="status">
          The run was cancelled; its test file was removed and nothing was saved.
        </div>
      ) : null}
      <ErrorNote error={run.status === 'failed' ? run.error : null} what="The run" newRunLink />
      <section aria-labelledby="now-h">
        <h2 id="now-h">Current figures</h2>
        {last ? (
          <dl className="facts big" data-testid="current-figures">
            <dt>{testTitle(last.test)}</dt>
            <dd>
              {formatThroughput(last.bytesPerSec)} · {formatIops(last.iops)}
            </dd>
          </dl>
        ) : (
          <p className="muted">Figures appear once the first timed window starts (after the warm-up).</p>
        )}
      </section>
      <section aria-labelledby="chart-h">
        <h2 id="chart-h">
          Throughput over time <span className="muted">(MB/s, {scale.note})</span>
        </h2>
        {series.length === 0 ? (
          <p className="muted">No samples yet.</p>
        ) : (
          <div className="chart" data-testid="live-chart" data-scale={scale.log ? 'log' : 'linear'}>
            {/* One named image; the figures above are its text. */}
            <div role="img" aria-label={liveChartName(series)}>
              <LiveChart drawn={drawn} scale={scale} />
            </div>
            {/* The legend: each test's swatch drawn as its line is, colour and dash, so it reads in greyscale too. */}
            <ul className="live-legend" data-testid="live-legend" aria-label="Lines">
              {series.map((s, i) => (
                <li key={s.test}>
                  <svg width="32" height="10" aria-hidden="true">
                    <line x1="0" y1="5" x2="32" y2="5" stroke={lineStyle(i).stroke} strokeDasharray={lineStyle(i).dash} strokeWidth="2.5" />
                  </svg>{' '}
                  {s.title}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      <WarningList warnings={run.warnings} label="Warnings during this run" />
    </>
  );
}
