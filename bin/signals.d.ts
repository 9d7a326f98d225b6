// Types of signals.js for the TypeScript code that imports it (electron/cli/signals.ts).
export declare const STOP_SIGNALS: readonly NodeJS.Signals[];
