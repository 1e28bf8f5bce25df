// The web app's build: Preact through Vite's own JSX transform, served by the service at /app/
// (src/modules/webapp/routes.ts). `npm run build` writes dist/webapp; the browser tests build into a
// temporary folder with the same config. Two steps of our own after Vite's:
// - the service worker (src/sw.ts) is built as `sw.js` at the root (its scope is /app/), with the
//   list of the shell's files (index.html and every hashed asset) written into it, so an offline
//   start has everything and a new build is a new worker (its bytes change with the hashes);
// - every text file is written again as .br and .gz (DESIGN, "Web app": compressed at build).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest)$/;

/** Writes the shell's file list into sw.js (replacing `self.__SHELL__`) once the bundle is known. */
function serviceWorkerShell(): Plugin {
  return {
    name: 'pronostics-sw-shell',
    generateBundle(_options, bundle) {
      const shell = [
        '/app/',
        ...Object.keys(bundle)
          .filter((name) => name.startsWith('assets/'))
          .map((name) => `/app/${name}`),
      ];
      const worker = Object.values(bundle).find((file) => file.type === 'chunk' && file.fileName === 'sw.js');
      if (!worker || worker.type !== 'chunk') throw new Error('the service worker was not built');
      if (!worker.code.includes('self.__SHELL__'))
        throw new Error('sw.js lost its self.__SHELL__ placeholder');
      worker.code = worker.code.replace('self.__SHELL__', JSON.stringify(shell.sort()));
    },
  };
}

/** .br and .gz beside every text file of the build (its outDir as resolved: the tests build elsewhere). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pronostics-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const names = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
      for (const file of names) {
        if (!COMPRESSIBLE.test(relative(outDir, file))) continue;
        const bytes = await readFile(file);
        await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        await writeFile(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig(({ mode }) => {
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    base: '/app/',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    plugins: [serviceWorkerShell(), precompress()],
    build: {
      outDir: fileURLToPath(new URL('../dist/webapp', import.meta.url)),
      emptyOutDir: true,
      // The service's CSP allows same-origin scripts only: no inline preload polyfill.
      modulePreload: { polyfill: false },
      sourcemap: mode === 'development',
      rollupOptions: {
        input: {
          index: fileURLToPath(new URL('./index.html', import.meta.url)),
          sw: fileURLToPath(new URL('./src/sw.ts', import.meta.url)),
        },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        },
      },
    },
  };
});
