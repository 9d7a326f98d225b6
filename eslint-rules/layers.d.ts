// Types of layers.js for the TypeScript code that imports it (electron/layers.test.ts).
import type { Rule } from 'eslint';

export interface Layer {
  name: string;
  dirs: string[];
  mayImport?: string[];
  mayImportPaths?: string[];
  forbidPackages?: { name: string; why?: string }[];
}
export declare const CORE_LAYERS: string[];
export declare const LAYERS: Layer[];
export declare const layersRule: Rule.RuleModule;
