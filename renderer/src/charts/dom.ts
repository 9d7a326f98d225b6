// A DOM for the renderer's tests that draw the app's charts in Node: jsdom, with the two
// things it leaves out that the charts use, a width (layout) and ResizeObserver. Test-only.
import { JSDOM } from 'jsdom';
import { act, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';

/** Every element is this wide (draw's `width`, 900 px unless told): the charts draw at the width they measure. */
let width = 900;

export function installDom(): void {
  if ((globalThis as { document?: unknown }).document) return;
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
  const g = globalThis as Record<string, unknown>;
  for (const key of [
    'window',
    'document',
    'HTMLElement',
    'SVGElement',
    'Element',
    'Node',
    'getComputedStyle',
    'requestAnimationFrame',
    'cancelAnimationFrame',
  ])
    g[key] = key === 'window' ? dom.window : (dom.window as unknown as Record<string, unknown>)[key];
  Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  g.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  dom.window.HTMLElement.prototype.getBoundingClientRect = () => ({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    width,
    height: 300,
    right: width,
    bottom: 300,
    toJSON: () => ({}),
  });
  g.IS_REACT_ACT_ENVIRONMENT = true;
}

/** Renders an element into a fresh container and returns it, effects and layout effects run. */
export async function draw(
  element: ReactElement,
  options: { width?: number } = {},
): Promise<{ container: HTMLElement; unmount: () => Promise<void> }> {
  installDom();
  width = options.width ?? 900;
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(element));
  return {
    container,
    unmount: async () => {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}
