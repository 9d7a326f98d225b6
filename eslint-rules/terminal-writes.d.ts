// Types of terminal-writes.js for the TypeScript code that imports it (electron/cli/terminal-writes.test.ts).
import type { Rule } from 'eslint';

export declare const terminalWritesRule: Rule.RuleModule;
export declare const TERMINAL_WRITES: { files: string[]; ignores: string[]; writers: string[] };
