import type { ReactNode } from 'react';
import type { ApiError } from '../../../electron/shared/contract/contract.ts';
import { actionOf } from '../../../electron/shared/model/failures.ts';

/** Actions that mean "start again with another folder or size": the New run form is where. */
const NEEDS_NEW_RUN = new Set(['pick-folder', 'free-space', 'use-buffered', 'run-as-root', 'fix-input']);

/**
 * A backend error as the person can act on it: UNAVAILABLE says which part is missing; a run
 * failure (error.failure, model/failures.ts) says what to do about it, with a way there.
 */
export function ErrorNote({ error, what, newRunLink = false }: { error: ApiError | null; what?: string; newRunLink?: boolean }) {
  if (!error) return null;
  const title = error.code === 'UNAVAILABLE' ? `${what ?? 'This'} is not available` : `${what ?? 'That'} did not work`;
  const action = error.failure ? actionOf(error.failure, 'app') : null;
  return (
    <div className={`banner ${error.code === 'UNAVAILABLE' ? 'warn' : 'error'}`} role="alert" data-testid="error-note">
      <strong>{title}.</strong> {error.message} <span className="code">({error.failure ?? error.code})</span>
      {action ? (
        <p data-testid="failure-action" data-action={action.action}>
          {action.text}
          {newRunLink && NEEDS_NEW_RUN.has(action.action) ? (
            <>
              {' '}
              <a href="#/new">Back to New run</a>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="empty" data-testid="empty-state">
      <h2>{title}</h2>
      <div>{children}</div>
    </section>
  );
}

/** The page's title and its buttons; `className` adds to `page-header` (print rules key on it). */
export function PageHeader({ title, children, className }: { title: string; children?: ReactNode; className?: string }) {
  return (
    <header className={className ? `page-header ${className}` : 'page-header'}>
      <h1>{title}</h1>
      {children ? <div className="actions">{children}</div> : null}
    </header>
  );
}

export function WarningList({
  warnings,
  label,
}: {
  warnings: Array<{ code: string; message: string; test?: string | null }>;
  label?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings" aria-label={label ?? 'Warnings'}>
      {warnings.map((w, i) => (
        <li key={i}>
          <span aria-hidden="true">⚠ </span>
          {w.test ? <span className="muted">{w.test}: </span> : null}
          {w.message} <span className="code">({w.code})</span>
        </li>
      ))}
    </ul>
  );
}

// Made once: Chromium's toLocaleString builds a formatter on every call (see formatNumber), and
// the Library formats a date per row.
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : DATE_TIME.format(d);
}

export function formatEta(seconds: number | null): string {
  if (seconds == null) return 'estimating…';
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s left`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s left`;
}

export { SERIES_COLORS } from '../../../electron/shared/charts/colors.ts';

/**
 * A wide data table in its own sideways-scrolling box, so a narrow window or 200 % zoom keeps
 * the page itself one column wide (WCAG 1.4.10). The box is a named tab stop: a keyboard user
 * scrolls it with the arrow keys. `tall`: a table of hundreds of rows (the Fleet page's hosts)
 * scrolls down inside a box a window high too, its header row kept in view (styles.css).
 */
export function TableScroll({ label, tall = false, children }: { label: string; tall?: boolean; children: ReactNode }) {
  return (
    <div className={tall ? 'table-scroll tall' : 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
