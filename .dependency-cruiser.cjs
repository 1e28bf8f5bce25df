// The house rules of docs/architecture.md, checked in CI (`npm run lint:deps`): modules meet only
// through their services (or a published interface), a request flows route → service → repository,
// the engine stays pure, and no file imports itself back through a circle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports means two files are one idea or an interface is in the wrong file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'repository-of-another-module',
      severity: 'error',
      comment:
        'Each module owns its tables: another module reaches them through its service or a published interface, never its repository.',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/[^/]*repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'repository-outside-modules',
      severity: 'error',
      comment: 'Outside src/modules (worker, CLI, plugins, container), nothing reads a repository.',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/[^/]*repository\\.ts$' },
    },
    {
      name: 'routes-only-from-the-app',
      severity: 'error',
      comment: 'Routes are registered by buildApp; nothing else calls a route file.',
      from: { pathNot: '^src/app\\.ts$' },
      to: { path: '^src/modules/[^/]+/routes\\.ts$' },
    },
    {
      name: 'no-http-below-routes',
      severity: 'error',
      comment:
        'Services and repositories know nothing of HTTP: only routes use the plugins (currentUser, envelope helpers).',
      from: { path: '^src/modules/', pathNot: '/routes\\.ts$' },
      to: { path: '^src/plugins/' },
    },
    {
      name: 'worker-through-analysis-jobs',
      severity: 'error',
      comment: 'The worker reaches the pronostics module only through its published analysis-jobs interface.',
      from: { path: '^src/worker/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/pronostics/analysis-jobs\\.ts$' },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment:
        'The prediction model is pure functions: no database, no HTTP, no I/O, nothing outside src/engine.',
      from: { path: '^src/engine/' },
      to: { pathNot: '^src/engine/' },
    },
    {
      name: 'lib-is-shared-pieces',
      severity: 'error',
      comment: 'src/lib holds small shared pieces; it depends on no module, plugin, provider or process.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(modules|plugins|providers|worker|cli|db|services\\.ts|app\\.ts|server\\.ts)' },
    },
    {
      name: 'providers-know-no-modules',
      severity: 'error',
      comment: 'Providers (messaging, ai, payments) are adapters behind interfaces: they call no module.',
      from: { path: '^src/providers/' },
      to: { path: '^src/(modules|plugins|worker|cli|services\\.ts|app\\.ts)' },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
