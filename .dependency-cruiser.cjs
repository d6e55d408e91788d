/**
 * Import rules the code keeps (docs/decisions/025-module-boundaries.md and 027, DESIGN §3), checked by
 * `npm run lint:deps` (part of `npm run lint` and `.ci/run`). Type-only imports count
 * (tsPreCompilationDeps), and so do dynamic imports. Tests (`*.test.ts(x)`, `tests/`) and
 * `bench/` may import whatever they exercise; the layering rules apply to the code that ships.
 */
const TEST = '\\.test\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, type-only and dynamic imports included: give what both sides need a module of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-through-its-index',
      severity: 'error',
      comment:
        "A client feature uses another feature only through that feature's public index.ts; what several features share lives in src/client/components or lib.",
      from: { path: '^src/client/features/([^/]+)/', pathNot: TEST },
      to: {
        path: '^src/client/features/',
        pathNot: ['^src/client/features/$1/', '^src/client/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'pages-through-feature-index',
      severity: 'error',
      comment:
        "Pages (src/client/pages) compose features through their index.ts, as features do; only the route table (src/client/app) loads a feature's page files.",
      from: { path: '^src/client/pages/', pathNot: TEST },
      to: { path: '^src/client/features/', pathNot: '^src/client/features/[^/]+/index\\.tsx?$' },
    },
    {
      name: 'components-and-lib-below-features',
      severity: 'error',
      comment: 'src/client/components and src/client/lib are below the features: they import no feature, page or route.',
      from: { path: '^src/client/(components|lib)/', pathNot: TEST },
      to: { path: '^src/client/(features|pages|app)/' },
    },
    {
      name: 'module-through-its-service',
      severity: 'error',
      comment:
        "A server module uses another only through that module's service.ts (DESIGN §3); what several modules share without belonging to one lives in src/server/lib or src/shared.",
      from: { path: '^src/server/modules/([^/]+)/', pathNot: TEST },
      to: {
        path: '^src/server/modules/',
        pathNot: ['^src/server/modules/$1/', '^src/server/modules/[^/]+/service\\.ts$'],
      },
    },
    {
      name: 'modules-not-sockets',
      severity: 'error',
      comment:
        'Modules never touch sockets: they hand typed events (shared/realtime/events) to a Publish function or app.realtime, and realtime/ delivers them.',
      from: { path: '^src/server/modules/', pathNot: TEST },
      to: { path: '^src/server/realtime/' },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'src/shared runs on both sides: it imports nothing from the client or the server.',
      from: { path: '^src/shared/', pathNot: TEST },
      to: { path: '^src/(client|server)/' },
    },
    {
      name: 'shared-no-node-builtins',
      severity: 'error',
      comment: 'src/shared runs in the browser too: no Node built-in.',
      from: { path: '^src/shared/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'client-not-server',
      severity: 'error',
      comment: 'The client never imports the server (what both need lives in src/shared).',
      from: { path: '^src/client/', pathNot: TEST },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-client',
      severity: 'error',
      comment: "The server never imports the client's code (it serves the built files).",
      from: { path: '^src/server/', pathNot: TEST },
      to: { path: '^src/client/' },
    },
    {
      name: 'code-not-tests',
      severity: 'error',
      comment: 'Shipped code does not import tests, test helpers or benchmarks.',
      from: { path: '^src/', pathNot: TEST },
      to: { path: [TEST, '^tests/', '^bench/'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data|node_modules|src/server/db/migrations)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
