// A page whose code is fetched when it is first needed (the charts, zod and the report model stay
// out of the first bundle). Not React.lazy alone: React 19 holds back content that replaces a
// Suspense fallback until 300 ms after the fallback appeared (its FALLBACK_THROTTLE_MS), so
// every first open of a lazy page waited at least 300 ms although its code arrived in ~50 ms
// (bench:fleet-page's 10-host open: a timer fired the page's render). A page whose code is
// already in renders at once, with no fallback. main.tsx fetches the first page's code before
// the first render; the app fetches the others a little after the first page has drawn.
import { createElement, lazy, useState, type ComponentType, type ReactElement } from 'react';

export interface LazyPage {
  Page: ComponentType;
  /** Fetches the page's code (once); resolved when a render of Page needs no fallback. */
  preload: () => Promise<void>;
}

export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null; // a failed fetch (the server went away) is tried again next time
        throw error;
      },
    ));
  const ViaSuspense = lazy(() => fetchCode().then((component) => ({ default: component })));
  function Page(): ReactElement {
    // Chosen once per mount: switching from the lazy wrapper to the page itself after its code
    // arrived would be a new element type, and React would remount the page and lose its state.
    const [component] = useState<ComponentType>(() => loaded ?? ViaSuspense);
    return createElement(component);
  }
  return { Page, preload: () => fetchCode().then(() => undefined) };
}
