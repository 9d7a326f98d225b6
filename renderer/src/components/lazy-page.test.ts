// lazyPage (components/lazy-page.ts) drawn by React in jsdom: a page whose code is in is drawn
// in the first commit with no fallback (React 19 would hold a fallback's replacement back
// 300 ms), one whose code is not yet in goes through Suspense, and switching between the two
// never remounts a page (its state kept). A failed fetch is tried again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, createElement as h, Suspense, useEffect, useState, type ComponentType } from 'react';
import { draw } from '../charts/dom.ts';
import { lazyPage } from './lazy-page.ts';

/** A page that counts its mounts and shows a counter kept in its state. */
function countingPage(mounts: { count: number }, bump: { current: (() => void) | null }): ComponentType {
  return function Counted() {
    const [clicks, setClicks] = useState(0);
    useEffect(() => {
      mounts.count++;
      bump.current = () => setClicks((c) => c + 1);
    }, []);
    return h('p', { 'data-testid': 'page' }, `clicks ${clicks}`);
  };
}

test('a page whose code was fetched ahead is drawn in the first commit, with no fallback', async () => {
  const mounts = { count: 0 };
  const { Page, preload } = lazyPage(async () => countingPage(mounts, { current: null }));
  await preload();
  let fallbacks = 0;
  const Fallback = () => {
    fallbacks++;
    return h('p', null, 'Loading…');
  };
  const app = await draw(h(Suspense, { fallback: h(Fallback) }, h(Page)));
  assert.equal(app.container.textContent, 'clicks 0');
  assert.equal(fallbacks, 0);
  await app.unmount();
});

test('a page whose code is not in yet shows the fallback, then itself; its parent drawing again keeps its state', async () => {
  const mounts = { count: 0 };
  const bump: { current: (() => void) | null } = { current: null };
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const { Page } = lazyPage(async () => {
    await arrived;
    return countingPage(mounts, bump);
  });
  let redrawParent!: () => void;
  function Parent() {
    const [, setTick] = useState(0);
    redrawParent = () => setTick((t) => t + 1);
    return h(Suspense, { fallback: h('p', null, 'Loading…') }, h(Page));
  }
  const app = await draw(h(Parent));
  assert.equal(app.container.textContent, 'Loading…');
  await act(async () => {
    arrive();
    await arrived;
  });
  // React may hold the reveal back (300 ms after the fallback): wait for it, as a reader would.
  for (let i = 0; i < 100 && app.container.textContent === 'Loading…'; i++)
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
  assert.equal(app.container.textContent, 'clicks 0');
  await act(async () => bump.current!());
  assert.equal(app.container.textContent, 'clicks 1');
  // The code is in now, so a fresh mount would draw the page directly; this mount keeps its own.
  await act(async () => redrawParent());
  assert.equal(app.container.textContent, 'clicks 1', 'the page kept its state');
  assert.equal(mounts.count, 1, 'mounted once');
  await app.unmount();
});

test('a fetch of the code that fails is tried again by the next preload', async () => {
  let attempts = 0;
  const { preload } = lazyPage(async () => {
    attempts++;
    if (attempts === 1) throw new Error('the server went away');
    return () => h('p', null, 'page');
  });
  await assert.rejects(preload(), /the server went away/);
  await preload();
  await preload();
  assert.equal(attempts, 2, 'fetched again once after the failure, then kept');
});
