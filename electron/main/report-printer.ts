// The desktop app's report printer: the report's static HTML (electron/shared/report) loaded in a
// hidden, sandboxed window with JavaScript off (the report has none), printed by Electron's
// own Chromium with the same options the CLI gives the system's Chromium. Only the printer
// differs between the front ends; the document is the same text.
import { BrowserWindow } from 'electron';
import { PRINT_OPTIONS, ReportPrintError, type ReportPrinter } from '../shared/report/printer.ts';

const NO_MARGINS = { top: 0, bottom: 0, left: 0, right: 0 };

export function electronPrinter(): ReportPrinter {
  return {
    name: 'Electron printToPDF',
    async print(html) {
      const window = new BrowserWindow({
        show: false,
        webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, spellcheck: false },
      });
      try {
        // A data: URL keeps the document off the disk; its CSP (default-src 'none') forbids any load.
        await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
        // Margins 0, as the CLI's Chromium prints (Playwright's default): the page's own CSS
        // sets them, so one report has one layout. Electron's default would add 0.4 in.
        return new Uint8Array(await window.webContents.printToPDF({ ...PRINT_OPTIONS, margins: NO_MARGINS }));
      } catch (error) {
        throw new ReportPrintError(`printing the report failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        window.destroy();
      }
    },
  };
}
