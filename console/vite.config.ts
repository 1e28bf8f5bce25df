// The admin console's build: Preact through Vite's own JSX transform (no Babel), served by the
// service at /admin (src/modules/console/routes.ts). `npm run build` writes dist/console; the
// browser tests build into a temporary folder with the same config.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // The service's CSP allows same-origin scripts only: no inline preload polyfill.
    modulePreload: { polyfill: false },
  },
});
