import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { DiskDeltaBridge } from '../../electron/shared/contract/bridge.ts';
import { createIpcClient } from './api/ipc-transport.ts';
import { createWsClient, wsUrlFromLocation } from './api/ws-transport.ts';
import type { ApiClient } from './api/client.ts';
import { createStores, StoresContext } from './stores/index.ts';
import { App, loadPageData, preloadPage } from './app.tsx';
import { parseRoute } from './view/route.ts';
import { connection } from './view/connection.ts';
import './styles.css';

declare global {
  interface Window {
    diskdelta?: DiskDeltaBridge;
  }
}

function pickClient(): ApiClient | string {
  if (window.diskdelta) return createIpcClient(window.diskdelta);
  const url = wsUrlFromLocation(window.location);
  if (!url) return 'This page needs the token from the address printed by `diskdelta serve`. Open that full address.';
  return createWsClient({ url, onConnectionChange: (state) => connection.set(state) });
}

const root = createRoot(document.getElementById('root')!);
const client = pickClient();
if (typeof client === 'string') {
  root.render(
    <main className="fatal">
      <h1>DiskDelta</h1>
      <p>{client}</p>
    </main>,
  );
} else {
  const stores = createStores(client);
  const page = parseRoute(window.location.hash);
  // The first page's data and code at once, and its code before the first render: drawn
  // without a "Loading…" in between (components/lazy-page.ts). A fetch of the code that fails
  // renders anyway; the page then says so.
  loadPageData(stores, page);
  void preloadPage(page)
    .catch(() => {})
    .then(() =>
      root.render(
        <StrictMode>
          <StoresContext value={stores}>
            <App />
          </StoresContext>
        </StrictMode>,
      ),
    );
}
