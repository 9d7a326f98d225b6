// Makes `require('electron')` (and `import 'electron'`) resolve to electron-stand-in.ts, so a
// built bundle runs under plain Node: `node --import ./electron/main/electron-stand-in-hooks.ts
// dist/electron/main.cjs`, or imported first by a test. Without it, 'electron' resolves to the
// npm package, which only exports the path of a binary that is not installed here.
import { registerHooks } from 'node:module';

const STAND_IN = new URL('./electron-stand-in.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: STAND_IN, format: 'module-typescript', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
