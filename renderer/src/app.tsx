import { Suspense, useEffect, useRef, type ComponentType } from 'react';
import { useStore } from 'zustand';
import { PAGES, useRoute, type PageId } from './view/route.ts';
import { connectionStore } from './view/connection.ts';
import { useRuns, useTransportKind } from './stores/index.ts';
import { OverviewPage } from './pages/overview.tsx';
import { LibraryPage } from './pages/library.tsx';
import { WorkingSetPage } from './pages/working-set.tsx';
import { useStoresApi } from './stores/use-stores-api.ts';
import type { Stores } from './stores/index.ts';
import { lazyPage, type LazyPage } from './components/lazy-page.ts';

// The heavy pages are loaded when first opened, so the first page is interactive sooner: the
// chart pages carry the chart registry and the report model, New run the settings table and its schemas
// (zod, ~60 KB). The light pages (Overview, Library, Working set) are in the first bundle: made
// lazy too, the Library's first load was ~150 ms slower (the page's chunks fetched after the
// shell rendered, then its data), measured with `npm run bench:app` in one quiet window.
const LAZY_PAGES = {
  new: lazyPage(() => import('./pages/new-run.tsx').then((m) => m.NewRunPage)),
  live: lazyPage(() => import('./pages/live-run.tsx').then((m) => m.LiveRunPage)),
  compare: lazyPage(() => import('./pages/compare.tsx').then((m) => m.ComparePage)),
  fleet: lazyPage(() => import('./pages/fleet.tsx').then((m) => m.FleetPage)),
  // The spec sheet's schema (zod) and the candidates' table.
  candidates: lazyPage(() => import('./pages/candidates.tsx').then((m) => m.CandidatesPage)),
  // The report view brings react-dom/server's sibling code paths and the report model.
  report: lazyPage(() => import('./pages/report.tsx').then((m) => m.ReportPage)),
} satisfies Partial<Record<PageId, LazyPage>>;

const PAGE_COMPONENTS: Record<PageId, ComponentType> = {
  overview: OverviewPage,
  new: LAZY_PAGES.new.Page,
  live: LAZY_PAGES.live.Page,
  library: LibraryPage,
  'working-set': WorkingSetPage,
  candidates: LAZY_PAGES.candidates.Page,
  compare: LAZY_PAGES.compare.Page,
  fleet: LAZY_PAGES.fleet.Page,
  report: LAZY_PAGES.report.Page,
};

/** The code of this page, fetched (nothing to fetch for a page in the first bundle). */
export function preloadPage(page: PageId): Promise<void> {
  return page in LAZY_PAGES ? LAZY_PAGES[page as keyof typeof LAZY_PAGES].preload() : Promise.resolve();
}

/**
 * A page's data asked for as soon as the route is known (main.tsx before the first render, the
 * app on each change of page), not by the page when it mounts: a fleet of 1,000 hosts takes the
 * server ~200 ms to read, which then overlaps the fetch of the page's code instead of following
 * it. The store sends a question already on its way once (StrictMode's double effects too).
 */
export function loadPageData(stores: Stores, page: PageId): void {
  if (page === 'fleet') void stores.fleet.getState().load();
}

/** After the first page has drawn and settled: the other pages' code, so opening one shows it at once. */
const PRELOAD_OTHERS_AFTER_MS = 3000;

export function App() {
  const page = useRoute();
  const kind = useTransportKind();
  const connection = useStore(connectionStore, (s) => s.state);
  const running = useRuns((s) => Object.values(s.runs).some((r) => r.status === 'running' || r.status === 'cancelling'));
  const stores = useStoresApi();
  // Again after a lost connection comes back: a run may have started or ended meanwhile.
  useEffect(() => {
    if (connection !== 'open' && connection !== 'connecting') return;
    void stores.runs.getState().loadActive();
  }, [stores, connection]);
  // The first page's data was asked for before the first render (main.tsx); again on each change of page.
  const dataAskedFor = useRef(page);
  useEffect(() => {
    if (dataAskedFor.current === page) return;
    dataAskedFor.current = page;
    loadPageData(stores, page);
  }, [stores, page]);
  useEffect(() => {
    const timer = setTimeout(() => {
      for (const lazy of Object.values(LAZY_PAGES)) lazy.preload().catch(() => {}); // opened later, the page says what failed
    }, PRELOAD_OTHERS_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  const firstPage = useRef(true);
  useEffect(() => {
    const title = PAGES.find((p) => p.id === page)?.title ?? '';
    document.title = `${title} · DiskDelta`;
    // After a page change, focus goes to the new content (as a screen reader expects); on the
    // first load it stays at the top, so Tab reaches the skip link first.
    if (firstPage.current) firstPage.current = false;
    else document.getElementById('main')?.focus({ preventScroll: true });
  }, [page]);
  const Page = PAGE_COMPONENTS[page];
  return (
    <div className="shell">
      <a
        className="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Pages">
        <div className="brand">
          Disk<strong>Delta</strong>
        </div>
        <ul>
          {PAGES.map((p) => (
            <li key={p.id}>
              <a href={`#/${p.id}`} aria-current={p.id === page ? 'page' : undefined}>
                {p.title}
                {p.id === 'live' && running ? <span className="dot" aria-label="a run is in progress" /> : null}
              </a>
            </li>
          ))}
        </ul>
        <p className="mode">{kind === 'browser' ? 'Browser mode · 127.0.0.1' : 'Desktop app'}</p>
      </nav>
      <main id="main" tabIndex={-1} data-testid={`page-${page}`}>
        {kind === 'browser' && connection === 'closed' ? (
          <div className="banner error" role="alert" data-testid="connection-banner">
            The connection to <code>diskdelta serve</code> was lost. Restart it and open the new address it prints; this page reconnects by
            itself if the server comes back with the same token.
          </div>
        ) : null}
        {kind === 'browser' && connection === 'stale' ? (
          <div className="banner error" role="alert" data-testid="connection-banner">
            <code>diskdelta serve</code> was restarted: the token in this address is from its earlier start (stale). Open the new address it
            printed.
          </div>
        ) : null}
        <Suspense fallback={<p aria-live="polite">Loading…</p>}>
          <Page />
        </Suspense>
      </main>
    </div>
  );
}
