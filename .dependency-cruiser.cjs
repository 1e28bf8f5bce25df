// The house rules of docs/architecture.md, checked in CI (`npm run lint:deps`): modules meet only
// through their services (or a published interface), a request flows route → service → repository,
// the engine stays pure, and no file imports itself back through a circle. Every rule below has a
// planted violation in test/architecture/dependency-rules.test.ts; a rule added without one fails it.

// The background loops: src/runtime/ (runtime.ts builds them, one file per loop).
const LOOPS = '^src/runtime/';

// The top layer, the processes: server.ts and worker-process.ts (the entries), app.ts (buildApp),
// process.ts (the one setup of every process) and the CLI. They import everything below; nothing
// below imports them, not even a type.
const PROCESSES = '^src/((app|process|server|worker-process)\\.ts$|cli/)';

// The configuration: src/config.ts, which assembles the one config object, and its pieces, one per
// area, in src/config/. The rules on config hold for every file of it.
const CONFIG = '^src/config(\\.ts$|/)';

// What a module publishes to the rest of src (the "published to other modules" column of
// docs/architecture.md): every module's service.ts, and the few small interfaces named there. The
// CLI and the loops may import a module only through these; its repository, schemas, CSV readers and
// other insides stay its own business.
const PUBLISHED =
  '^src/modules/(' +
  [
    '[^/]+/service',
    'auth/(otp-service|tokens)',
    'users/(profile|avatars)',
    'pronostics/analysis-jobs',
    'football/evaluation',
  ].join('|') +
  ')\\.ts$';

// Who owns the tables of each file in src/db/schema/ (the "owns" column of docs/architecture.md), by
// folder under src/: a module (`modules/<name>`) or the money capability (`money`, all of src/money/).
// A file holding several owners' tables lists each of them:
// - users.ts: `users` (users), `otp_codes`, `sms_budget_spend`, `otp_network_attempts`,
//   `access_tokens` (auth), `spending_limits` (users: responsible play); money owns the balance columns of `users` (its ledger writes them)
//   and the affiliation its `godfather_id` column, so both read the table too.
// - money.ts: `wallet_operations`, `packs`, `payments`, `withdrawals`, `payouts`, `flags`,
//   `spending_totals` (money).
// - pronostics.ts: `pronostic_types`, `pronostics`, `pronostic_counters` (pronostics); the
//   settlement columns of `pronostics` and the rollups `track_record_days`,
//   `track_record_calibration`, `track_record_matches` (track-record); `pronostic_matrices`
//   (pronostics: the score matrix a success used, which slips read through its service).
// columns.ts holds column helpers, no table, and index.ts is the barrel (its own rule below).
// A new table file needs a line here: the architecture test fails on a schema file without an owner.
const TABLE_OWNERS = {
  'account.ts': ['modules/account'],
  'admin.ts': ['modules/admin'],
  'devices.ts': ['modules/devices'],
  'fixtures.ts': ['modules/fixtures'],
  'events.ts': ['modules/events'],
  'football.ts': ['modules/football'],
  'idempotency.ts': ['modules/idempotency'],
  'money.ts': ['money'],
  'pronostics.ts': ['modules/pronostics', 'modules/track-record'],
  'slips.ts': ['modules/slips'],
  'support.ts': ['modules/support'],
  'users.ts': ['modules/users', 'modules/auth', 'modules/affiliation', 'money'],
};

const escapeDots = (text) => text.replaceAll('.', '\\.');

// One rule per table file, named after it, so a violation says whose tables were read.
const tableOwnershipRules = Object.entries(TABLE_OWNERS).map(([file, owners]) => ({
  name: `another-modules-tables:${file}`,
  severity: 'error',
  comment:
    `src/db/schema/${file} holds the tables of ${owners.join(', ')}: another module reaches them through ` +
    'the owner’s service, never its tables. Its types (row types, status unions) may be imported, type-only.',
  from: { path: '^src/(modules|money)/', pathNot: `^src/(${owners.join('|')})/` },
  to: { path: `^src/db/schema/${escapeDots(file)}$`, dependencyTypesNot: ['type-only'] },
}));

// The layers, top to bottom, and no import upwards, type-only imports included (the cruise reads
// them: tsPreCompilationDeps below): the processes (PROCESSES); the loops (src/runtime/); the
// container (src/services.ts); the modules and money (src/money/); the plugins, which their routes
// use and which reach them only through the app's decorators (app.services, declared in src/app.ts);
// then providers, db, schemas, src/types, the engine, src/lib and config.ts. Each rule names one step.
const layerRules = [
  {
    name: 'nothing-imports-a-process',
    severity: 'error',
    comment:
      'The processes (server.ts, worker-process.ts, app.ts, process.ts, the CLI) build everything ' +
      'below them; a file below that imported one, even for a type, would run or name a whole process ' +
      'from inside it, and make a circle. What a lower file needs is passed to it or declared lower.',
    from: { path: '^src/', pathNot: PROCESSES },
    to: { path: PROCESSES },
  },
  {
    name: 'container-knows-no-loops',
    severity: 'error',
    comment:
      'The container (src/services.ts) builds the services the loops run on; the loops are built over ' +
      'it by process.ts, so it names no loop, not even a type.',
    from: { path: '^src/services\\.ts$' },
    to: { path: LOOPS },
  },
  {
    name: 'modules-know-no-container',
    severity: 'error',
    comment:
      'A module (or money) is given what it needs (its factory’s dependencies, or an interface it ' +
      'declares); it never names the container (src/services.ts), which is built from every module.',
    from: { path: '^src/(modules|money)/' },
    to: { path: '^src/services\\.ts$' },
  },
  {
    name: 'plugins-know-no-loops',
    severity: 'error',
    comment:
      'Plugins are cross-cutting HTTP pieces: the loops are the app’s (app.runtime), never a plugin’s.',
    from: { path: '^src/plugins/' },
    to: { path: LOOPS },
  },
  {
    name: 'plugins-know-no-modules',
    severity: 'error',
    comment:
      'Plugins are registered before the modules and money and sit below them (routes use plugins): ' +
      'they reach the services through app.services, and a type they share with a module (AuthUser, ' +
      'IdempotentCommit) lives in src/types, below both. Not even a type-only import.',
    from: { path: '^src/plugins/' },
    to: { path: '^src/(modules|money)/' },
  },
  {
    name: 'plugins-know-no-container',
    severity: 'error',
    comment:
      'The `services` decorator is declared beside the app that decorates it (src/app.ts): a plugin ' +
      'reads app.services and never imports src/services.ts, not even its type.',
    from: { path: '^src/plugins/' },
    to: { path: '^src/services\\.ts$' },
  },
  {
    name: 'foundations-know-no-domain',
    severity: 'error',
    comment:
      'config.ts (with src/config/), src/db, src/schemas and src/types sit below the modules, money, ' +
      'plugins, loops and container: they import none of them, not even a type (config.ts and the ' +
      'providers: config-knows-no-providers; src/lib and the providers have their own rules).',
    from: { path: `^src/((db|schemas|types)/|${CONFIG})` },
    to: { path: '^src/(modules/|money/|plugins/|runtime/|services\\.ts$)' },
  },
  {
    name: 'types-are-types-only',
    severity: 'error',
    comment:
      'src/types holds only types shared by layers that must not import each other (plugins and ' +
      'modules): it imports types only, so it runs nothing and pulls no code in.',
    from: { path: '^src/types/' },
    to: { dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'types-imported-as-types',
    severity: 'error',
    comment:
      'src/types is imported type-only, everywhere: a value put there would be unreachable, so the ' +
      'folder stays types only.',
    from: { path: '^src/', pathNot: '^src/types/' },
    to: { path: '^src/types/', dependencyTypesNot: ['type-only'] },
  },
];

// The third way of wiring (docs/architecture.md, "Three ways of wiring"): a module runs another
// module's code only through the container (its factory's dependencies) or one of the pure helpers a
// module publishes, named here file by file: a pure function or value, no I/O, that needs no
// dependency. Type-only imports (interfaces, row types) are not concerned.
const PURE_HELPERS = [
  '[^/]+/schemas', // TypeBox shapes: a route answers with another module's (one definition per shape)
  'idempotency/commit', // withoutKey, commitOf: the commit objects a service is given
  'users/avatars', // avatarOf, avatarKeyOf: an avatar's public path and storage key
  'users/views', // fullUserView, adminUserView, publicName: a user row to its answers
  // The bookmakers' columns of football-data.co.uk files and their groups: the fixtures module
  // reads its fixtures file's pre-match group, and hands it to the engine, the same way.
  'football/odds-columns',
  // The readers of the cups' Football.TXT files and of the international results file (text in,
  // rows out): the fixtures module reads an admin's imported file with the same readers.
  'football/csv',
  'football/football-txt',
  'football/international-csv',
];

// Another module's repository has its own rule (repository-of-another-module), so it is left out here.
const pureHelpers = [...PURE_HELPERS, '[^/]+/[^/]*repository'].join('|');
const crossModuleRules = [
  {
    name: 'modules-share-only-pure-helpers',
    severity: 'error',
    comment:
      'A module (or money) runs a module’s code only through the container or a pure helper named in ' +
      'PURE_HELPERS (docs/architecture.md, "Three ways of wiring"): anything else it needs is a ' +
      'dependency of its factory (the other service, or an interface it declares).',
    from: { path: '^src/(modules/[^/]+|money)/' },
    to: {
      path: '^src/modules/',
      pathNot: `^src/($1/|modules/(${pureHelpers})\\.ts$)`,
      dependencyTypesNot: ['type-only'],
    },
  },
  {
    name: 'money-through-its-door',
    severity: 'error',
    comment:
      'Money is one capability with one door: outside src/money/, code imports only src/money/index.ts ' +
      '(the capability, the ledger, the commission port, the types and the route plugins it names), ' +
      'not even a type from another file of it. Its steps, repositories and views are its own business, ' +
      'so checkout and cash-out can be rearranged without touching anyone else.',
    from: { path: '^src/', pathNot: '^src/money/' },
    to: { path: '^src/money/', pathNot: '^src/money/index\\.ts$' },
  },
];

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
      from: { path: '^src/(modules|money)/', pathNot: '/routes\\.ts$' },
      to: { path: '^src/plugins/' },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment:
        'The prediction model is pure functions: no database, no HTTP, no I/O, nothing outside src/engine ' +
        'but the plain constants of src/lib/allowed-values.ts (the pronostic types, the settlement outcomes), ' +
        'of src/lib/time.ts (one day in milliseconds: the codebase has one) and the catalogues ' +
        '(src/lib/catalogues/: the analysis is told in a named language from its phrases, plain texts and ' +
        'functions), never src/lib/messages.ts, which reads the language of the work in progress.',
      from: { path: '^src/engine/' },
      to: { pathNot: '^src/(engine/|lib/allowed-values\\.ts$|lib/time\\.ts$|lib/catalogues/(fr|en)\\.ts$)' },
    },
    {
      name: 'lib-is-shared-pieces',
      severity: 'error',
      comment:
        'src/lib holds small shared pieces; it depends on no module, money, plugin, provider, loop, ' +
        'container, database code or src/types (the processes: nothing-imports-a-process).',
      from: { path: '^src/lib/' },
      to: { path: '^src/(modules/|money/|plugins/|providers/|runtime/|db/|types/|services\\.ts$)' },
    },
    {
      name: 'providers-know-no-modules',
      severity: 'error',
      comment:
        'Providers (messaging, ai, payments) are adapters behind interfaces: they call no module, ' +
        'money, plugin, loop or container (the processes: nothing-imports-a-process).',
      from: { path: '^src/providers/' },
      to: { path: '^src/(modules/|money/|plugins/|runtime/|services\\.ts$)' },
    },
    {
      name: 'modules-know-no-loops',
      severity: 'error',
      comment:
        'The loops (worker, runtime) drive the modules and money, never the other way: a module that ' +
        'imported a loop would start it in the API process, and the two would form a circle.',
      from: { path: '^src/(modules|money)/' },
      to: { path: LOOPS },
    },
    {
      name: 'loops-through-services',
      severity: 'error',
      comment:
        'A background loop reaches a module through its service or a published interface (or an ' +
        'interface the loop declares), never its repository or insides: the rules and the transaction ' +
        'stay in the service, the same for a request and a loop.',
      from: { path: LOOPS },
      to: { path: '^src/modules/', pathNot: PUBLISHED },
    },
    {
      name: 'config-knows-no-providers',
      severity: 'error',
      comment:
        'config.ts (and its pieces in src/config/) parses the environment and is read by everyone, ' +
        'providers included: importing a provider (even a type) would make a config ↔ providers circle. ' +
        'A figure config needs lives in config or src/lib, and the provider imports it from there.',
      from: { path: CONFIG },
      to: { path: '^src/providers/' },
    },
    {
      name: 'providers-read-config-types-only',
      severity: 'error',
      comment:
        'A provider is given its settings (the Config type is fine) but runs no code of config.ts or ' +
        'src/config/: ' +
        'together with config-knows-no-providers there is no config ↔ providers circle, even at load time.',
      from: { path: '^src/providers/' },
      to: { path: CONFIG, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lib-knows-no-config',
      severity: 'error',
      comment:
        'src/lib is small shared pieces usable anywhere, tests and scripts included: not even the Config ' +
        'type; a piece that needs a setting takes the value as a parameter.',
      from: { path: '^src/lib/' },
      to: { path: CONFIG },
    },
    {
      name: 'config-through-its-door',
      severity: 'error',
      comment:
        'The pieces of src/config/ are assembled by src/config.ts into the one config object: everyone ' +
        'else imports config.ts, so no reader depends on which piece declares a setting.',
      from: { path: '^src/', pathNot: CONFIG },
      to: { path: '^src/config/' },
    },
    {
      name: 'db-knows-no-engine',
      severity: 'error',
      comment:
        'The database layer (schema, client, migrations) sits below the domain: a list both need ' +
        '(pronostic type slugs, settlement outcomes) lives in src/lib or the schema, and the engine ' +
        'imports it, not the reverse.',
      from: { path: '^src/db/' },
      to: { path: '^src/engine/' },
    },
    {
      name: 'providers-know-no-db',
      severity: 'error',
      comment:
        'Providers speak their provider’s protocol and keep no rows: the values they share with tables ' +
        '(channels, provider names) come from src/lib, not from the schema.',
      from: { path: '^src/providers/' },
      to: { path: '^src/db/' },
    },
    {
      name: 'modules-skip-the-schema-barrel',
      severity: 'error',
      comment:
        'A module (or money) imports the schema file that holds the tables it reads, never the barrel ' +
        '(src/db/schema/index.ts): through the barrel, the another-modules-tables rules could not see ' +
        'whose tables are read. The barrel is for Drizzle (the client, drizzle-kit).',
      from: { path: '^src/(modules|money)/' },
      to: { path: '^src/db/schema/index\\.ts$' },
    },
    ...tableOwnershipRules,
    {
      name: 'cli-through-services',
      severity: 'error',
      comment:
        'A CLI command is an operator’s entry to what the API does: it goes through the container ' +
        '(ctx.services()) or a module’s published interface (service.ts and the few named in ' +
        'docs/architecture.md), which keep the rules and the transactions; never the schema, the ' +
        'engine, or a module’s insides, which would run a second, unchecked path to the same data.',
      from: { path: '^src/cli/' },
      to: { path: '^src/(db/schema/|engine/|modules/)', pathNot: PUBLISHED },
    },
    ...layerRules,
    ...crossModuleRules,
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
