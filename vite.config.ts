// Builds the renderer (renderer/ → dist/renderer). Relative base so the same build loads from
// file:// in Electron and from the browser-mode server.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2023',
    chunkSizeWarningLimit: 1500,
  },
});
