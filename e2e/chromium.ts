// Debian's Chromium as every browser driver here launches it (the Playwright suite, bench:app,
// bench:fleet-page): never `npx playwright install`; headless as root needs --no-sandbox.
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
