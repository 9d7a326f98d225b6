// Hash routes (#/library …): the token stays in the query string, and file:// works in Electron.
import { useSyncExternalStore } from 'react';

export const PAGES = [
  { id: 'overview', title: 'Overview' },
  { id: 'new', title: 'New run' },
  { id: 'live', title: 'Live run' },
  { id: 'library', title: 'Library' },
  { id: 'compare', title: 'Compare' },
  { id: 'working-set', title: 'Working set' },
  { id: 'candidates', title: 'Candidates' },
  { id: 'fleet', title: 'Fleet' },
  { id: 'report', title: 'Report' },
] as const;

export type PageId = (typeof PAGES)[number]['id'];

export function parseRoute(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return PAGES.find((p) => p.id === id)?.id ?? 'overview';
}

export function navigate(page: PageId): void {
  window.location.hash = `#/${page}`;
}

function subscribe(callback: () => void) {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

export function useRoute(): PageId {
  return useSyncExternalStore(subscribe, () => parseRoute(window.location.hash));
}
