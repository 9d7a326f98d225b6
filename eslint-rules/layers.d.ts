// Types of layers.js for the TypeScript code that imports it (electron/layers.test.ts).
import type { Rule } from 'eslint';

export interface Layer {
  name: string;
  dirs: string[];
  mayImport?: string[];
  mayImportPaths?: string[];
  typeOnlyPaths?: string[];
  forbidPackages?: { name: string; why?: string }[];
  confinedTo?: string;
}
export declare const SHARED_LAYERS: string[];
export declare const NODE_LAYERS: string[];
export declare const LAYERS: Layer[];
export declare const layersRule: Rule.RuleModule;
