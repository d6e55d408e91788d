import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { writeBrandAssets } from './scripts/brand-assets.mjs';
import {
  chunkName,
  evaluationOrder,
  FEATURE_BARREL,
  importCycle,
  MEMBER_CHUNK,
  ModuleGraph,
  QUERY_CHUNK,
  ZOD_CHUNK,
} from './scripts/chunk-groups';
import { MEMBER_SHELL, ROUTE_PRELOADS, SERVER_RENDERER_DIR } from './src/shared/route-preload';
import { DEFAULT_TZ } from './src/shared/constants';
import { testClockOffset } from './tests/clock/test-now.mjs';

/**
 * The client is always a production build, whoever builds it. Vite takes React's development
 * bundles (and the jsx-dev-runtime) when NODE_ENV is already set to something else, as it is
 * in vitest's global setup (NODE_ENV=test) — ~45 KiB more gzipped on every page. NODE_ENV is
 * 'production' while the config resolves and the bundle is written, then restored for the
 * process that asked for the build (a test runner or `npm start`).
 */
function productionBuild(): Plugin {
  let saved: { value: string | undefined } | undefined;
  const restore = () => {
    if (!saved) return;
    if (saved.value === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved.value;
    saved = undefined;
  };
  return {
    name: 'fancy:production-build',
    apply: 'build',
    enforce: 'pre',
    config() {
      if (process.env.NODE_ENV === 'production') return;
      saved = { value: process.env.NODE_ENV };
      process.env.NODE_ENV = 'production';
    },
    closeBundle: restore,
  };
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts (woff2) are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;
/** Below this a compressed copy saves less than a packet: @fastify/static then sends the file itself. */
const PRECOMPRESS_MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every
 * compressible file of at least PRECOMPRESS_MIN_BYTES in `dir`, each only when it is smaller
 * than the file. Served by @fastify/static's `preCompressed` (docs/decisions/015). The work
 * runs in libuv's thread pool, so several files compress at once.
 */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  let count = 0;
  let bytes = 0;
  let brotliBytes = 0;
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) return;
      const body = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < body.length) await writeFile(`${file}.br`, br);
      if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped);
      count++;
      bytes += body.length;
      brotliBytes += Math.min(br.length, body.length);
    }),
  );
  return { files: count, bytes, brotliBytes };
}

/**
 * Writes the signed-out entry pages' HTML (src/client/prerender.tsx) beside index.html, in
 * `prerendered/`, so their content paints before the script runs (decision 015). The page
 * modules are loaded through a throw-away Vite server in SSR mode; a failure leaves the pages
 * to the plain index.html (the server falls back to it) and says so.
 */
export async function prerenderPages(dir: string): Promise<string[]> {
  const template = await readFile(path.join(dir, 'index.html'), 'utf8');
  if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root to prerender into');
  const { createServer } = await import('vite');
  const server = await createServer({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [react()],
  });
  try {
    const { PRERENDERED, renderPage } = (await server.ssrLoadModule(
      '/src/client/prerender.tsx',
    )) as typeof import('./src/client/prerender');
    await mkdir(path.join(dir, 'prerendered'), { recursive: true });
    const written: string[] = [];
    for (const [route, { file, title }] of Object.entries(PRERENDERED)) {
      const markup = await renderPage(route as keyof typeof PRERENDERED);
      // A form is not usable until the app has taken over (a native submit would put the password
      // in the URL): `inert` keeps it out of reach without changing how it looks.
      const content = markup.includes('<form') ? `<div inert style="display:contents">${markup}</div>` : markup;
      const html = template
        .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="">${content}</div>`)
        .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`);
      await writeFile(path.join(dir, 'prerendered', file), html);
      written.push(route);
    }
    return written;
  } finally {
    await server.close();
  }
}

/** The signed-out entry pages' modules (under src/client): they must not load the member chunk. */
const SIGNED_OUT_MODULES = [
  'pages/landing-page',
  'features/auth/components/auth-layout',
  'features/auth/pages/login-page',
  'features/auth/pages/register-page',
  'features/auth/pages/forgot-password-page',
  'features/auth/pages/reset-password-page',
];

/** A zod locale other than English (the one zod configures itself with). */
const ZOD_OTHER_LOCALE = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/](?!en\.js$|index\.js$)/;

/** Member pages whose forms check a schema as soon as they open: the only ones that may load zod at start. */
const ZOD_AT_START = new Set(['/settings']);

/**
 * Writes, per member route of ROUTE_PRELOADS, a copy of index.html naming every chunk the
 * route's modules need as `<link rel="modulepreload">` (decision 018): the browser fetches the
 * page's code in parallel with the entry instead of discovering it level by level. Chunks the
 * entry already preloads are left out. A module the bundle does not have stops the build.
 */
export async function writeRoutePages(dir: string, bundle: OutputBundle): Promise<string[]> {
  const template = await readFile(path.join(dir, 'index.html'), 'utf8');
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const cycle = importCycle(byFile);
  if (cycle)
    throw new Error(
      `Chunks import each other (${cycle.join(' → ')}): one would run before the other's exports exist. Move what both need so the imports go one way.`,
    );
  // A package's namespace used as a value (`import('zod')`) keeps its every export in the bundle:
  // zod's 64 locales and its JSON Schema code were ~50 KB (brotli) of each member page's first load.
  const wholeZod = chunks.find((c) => Object.entries(c.modules).some(([id, m]) => ZOD_OTHER_LOCALE.test(id) && m.renderedLength > 0));
  if (wholeZod)
    throw new Error(
      `${wholeZod.fileName} keeps every locale of zod: a module uses zod's whole namespace (import('zod'), or the namespace as a value); import the names it needs`,
    );
  const entry = chunks.find((c) => c.isEntry);
  const inEntry = new Set<string>();
  const walk = (file: string, into: Set<string>) => {
    if (into.has(file) || inEntry.has(file)) return;
    into.add(file);
    for (const dep of byFile.get(file)?.imports ?? []) walk(dep, into);
  };
  if (entry) walk(entry.fileName, inEntry);
  const chunkOf = (mod: string, what: string) => {
    const source = path.join(import.meta.dirname, 'src/client', mod);
    const chunk = chunks.find((c) => c.moduleIds.some((id) => id.replace(/\.tsx?$/, '') === source));
    if (!chunk) throw new Error(`${what}: no chunk for src/client/${mod}`);
    return chunk;
  };
  // The signed-out entry pages never load member code (issue 19): a module they import that lands
  // in the member chunk would bring all of it to `/`.
  for (const mod of SIGNED_OUT_MODULES) {
    const files = new Set<string>();
    walk(chunkOf(mod, 'signed-out page').fileName, files);
    for (const f of [...files, ...inEntry]) {
      const name = byFile.get(f)?.name;
      if (name === MEMBER_CHUNK || name === QUERY_CHUNK)
        throw new Error(`src/client/${mod} (a signed-out page) would load the ${name} chunk ${f}`);
    }
  }
  await mkdir(path.join(dir, 'routes'), { recursive: true });
  const written: string[] = [];
  for (const route of ROUTE_PRELOADS) {
    const files = new Set<string>();
    for (const mod of route.modules)
      walk(chunkOf(mod, `route ${route.pattern} (ROUTE_PRELOADS in src/shared/route-preload.ts)`).fileName, files);
    const chain = evaluationOrder([...inEntry, ...files], byFile);
    // zod is ~27 KB of a member page's start (issue 33): only a page whose own forms check a schema
    // as it opens may load it there; the others load it with its first use (a report, the socket).
    if (!ZOD_AT_START.has(route.pattern) && chain.some((f) => byFile.get(f)?.name === ZOD_CHUNK))
      throw new Error(
        `route ${route.pattern} would load zod at start: a module it needs imports a schema (use the zod-free texts beside it)`,
      );
    await writeFile(path.join(dir, 'routes', route.file), await memberPageHtml(dir, template, [...files], chain, byFile));
    written.push(route.pattern);
  }
  return written;
}

/**
 * A member page's HTML: index.html whose scripts start after the first paint (decision 028). A
 * member page comes rendered by the server, so on a slow phone its HTML, stylesheet and images
 * come first: a small starter (the page's only script tag) asks for every chunk the page needs
 * (at low priority, so the stylesheet and images still come first, and all at once:
 * modulepreload, no discovery chain, decisions 018 and 038), waits until the page's content is
 * on screen (the first contentful paint; 3 s at most), then evaluates the chunks one per task
 * (decision 029), each as soon as it and the chunks it imports are there (decision 044), and
 * then starts the app, which hydrates the page. A page that came without the server's render, or
 * a tab opened in the background, starts at once. Each starter is a hashed asset like the
 * bundle's, cached for good.
 */
async function memberPageHtml(
  dir: string,
  template: string,
  chunks: string[],
  chain: string[],
  byFile: ReadonlyMap<string, OutputChunk>,
): Promise<string> {
  const entryTag = template.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/);
  if (!entryTag) throw new Error('index.html has no module entry script to start after the first paint');
  const entry = entryTag[1];
  const preloadTag = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
  // Fetched in the order they are evaluated, the entry among them.
  const urls = [
    ...new Set([
      ...chain.map((f) => `/${f}`),
      entry,
      ...[...template.matchAll(preloadTag)].map((m) => m[1]),
      ...chunks.map((f) => `/${f}`),
    ]),
  ];
  const inChain = new Set(chain);
  const imports = Object.fromEntries(
    chain.map((f) => [`/${f}`, (byFile.get(f)?.imports ?? []).filter((d) => inChain.has(d)).map((d) => `/${d}`)]),
  );
  // The preloads go in a few at a time, one task each: thirty at once were a long task of their
  // own on a slow phone, and six took 40–75 ms there (traced, issue 29): three stay under 50.
  const starter = `(globalThis.__zod_globalConfig ??= {}).jitless = true;
globalThis.__fancyDeferStart = true;
const preloads = ${JSON.stringify(urls)};
const chain = ${JSON.stringify(chain.map((f) => `/${f}`))};
const imports = ${JSON.stringify(imports)};
const nextTask = () => globalThis.scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve));
const arrived = (url) => performance.getEntriesByName(new URL(url, location.href).href).length > 0;
let started = false;
let preloading = false;
const preloadSome = (fetchPriority = "auto") => {
  preloading = true;
  document.head.append(...preloads.splice(0, 3).map((url) => Object.assign(document.createElement("link"), { rel: "modulepreload", crossOrigin: "", href: url, fetchPriority })));
  if (preloads.length) setTimeout(() => preloadSome(fetchPriority));
};
const go = async () => {
  if (started) return;
  started = true;
  if (!preloading) preloadSome();
  // A chunk is evaluated once it and the chunks it imports are there: on a slow link the largest
  // file comes last, and what does not need it runs while it comes. Nothing there yet: the next
  // chunk in order is loaded (the browser waits for it), or whichever file arrives first.
  const done = new Set();
  const pending = [...chain];
  const load = (url) => import(url).catch(() => {}).then(() => {
    if (done.has(url)) return;
    done.add(url);
    pending.splice(pending.indexOf(url), 1);
  });
  let wake = () => {};
  let warmed = false;
  const arrivals = new PerformanceObserver(() => wake());
  arrivals.observe({ type: "resource" });
  while (pending.length) {
    const ready = pending.find((url) => imports[url].every((dep) => done.has(dep)) && arrived(url));
    if (ready) await load(ready);
    else if (!warmed) {
      // Waiting anyway: the zone's data, which the first London time the page shows would load then.
      warmed = true;
      new Intl.DateTimeFormat("en-GB", { timeZone: ${JSON.stringify(DEFAULT_TZ)} }).format(0);
    }
    else await Promise.race([load(pending[0]), new Promise((resolve) => { wake = resolve; })]);
    await nextTask();
  }
  arrivals.disconnect();
  globalThis.__fancyStart?.();
};
if (document.visibilityState === "hidden" || !document.getElementById("root")?.hasAttribute("data-ssr")) go();
else {
  preloadSome("low");
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length) { observer.disconnect(); setTimeout(go); }
  }).observe({ type: "paint", buffered: true });
  setTimeout(go, 3000);
}
`;
  const file = `assets/start-${createHash('sha256').update(starter).digest('base64url').slice(0, 10)}.js`;
  await writeFile(path.join(dir, file), starter);
  return template.replace(preloadTag, '').replace(entryTag[0], () => `<script type="module" crossorigin src="/${file}"></script>`);
}

/**
 * The member pages' server renderer (src/client/ssr.tsx, decision 028), built for Node into
 * `<dir>/.ssr/entry.mjs` beside the client it renders: the server loads it from there, so the
 * markup and the scripts that hydrate it always come from one build. Packages stay in
 * node_modules; a dot-folder is never served (@fastify/static) nor compressed.
 */
export async function buildServerRenderer(dir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    // Bundled whole, so only what the pages use is loaded (all of lucide-react alone is ~1,500 icons).
    ssr: { noExternal: true },
    // React's production build whatever NODE_ENV the server runs with: the markup the browser's (production) React hydrates.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ssr: 'src/client/ssr.tsx',
      outDir: path.join(dir, SERVER_RENDERER_DIR),
      emptyOutDir: true,
      sourcemap: false,
      minify: false,
      rolldownOptions: { output: { entryFileNames: 'entry.mjs', chunkFileNames: '[name]-[hash].mjs' } },
    },
  });
}

/**
 * `public/theme-init.js` (applies the stored theme before the first paint) goes out as a hashed
 * asset like the bundle's, so a warm visit takes it from the cache without asking (decision 018;
 * a plain public file is `no-cache`, revalidated on every load). The public copy stays for old
 * pages still open.
 */
function hashedThemeInit(): Plugin {
  let fileName = '';
  return {
    name: 'fancy:hashed-theme-init',
    apply: 'build',
    async buildStart() {
      // With the early-taps listener (decision 038): one blocking file in the head, cached for good.
      const source = (
        await Promise.all(['theme-init.js', 'early-taps.js'].map((f) => readFile(path.join(import.meta.dirname, 'public', f), 'utf8')))
      ).join('\n');
      fileName = `assets/theme-init-${createHash('sha256').update(source).digest('base64url').slice(0, 10)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace('<script src="/theme-init.js"></script>', () => `<script src="/${fileName}"></script>`),
    },
  };
}

/** Prerenders the signed-out pages, writes the member routes' pages, then pre-compresses the whole output folder (bundle, pages and copied public files). */
function prerenderAndCompress(): Plugin {
  return {
    name: 'fancy:prerender-and-compress',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (!options.dir) return;
      try {
        await prerenderPages(options.dir);
      } catch (err) {
        console.warn(`Prerendering the signed-out pages failed; they are served without it.\n${(err as Error).stack ?? err}`);
      }
      // Icons, manifest, link-preview image and the service worker (issue 20, decision 021).
      await writeBrandAssets(options.dir, path.join(import.meta.dirname, 'src/client/sw.js'));
      await writeRoutePages(options.dir, bundle);
      await buildServerRenderer(options.dir);
      await precompressDir(options.dir);
    },
  };
}

/**
 * What goes into the member and query chunks (scripts/chunk-groups.ts): the member shell and pages
 * of ROUTE_PRELOADS, and which lazy roots a visitor who is not signed in can load.
 */
function chunking() {
  const client = path.join(import.meta.dirname, 'src/client');
  const abs = (mod: string) => path.join(client, mod);
  const rel = (root: string) => path.relative(client, root).split(path.sep).join('/');
  const gate = 'features/auth/protected-route';
  const shell = MEMBER_SHELL.filter((m) => m !== 'app/query-layout').map(abs);
  const pages = [...new Set(ROUTE_PRELOADS.flatMap((r) => r.modules))]
    .filter((m) => !(MEMBER_SHELL as readonly string[]).includes(m))
    .map(abs);
  // The entry pages and their lazy parts (auth pages, shared schemas, anything outside features/).
  const isSignedOutEntry = (root: string) => {
    const r = rel(root);
    return (r.startsWith('features/auth/') && r !== gate) || !(r.startsWith('features/') || r.startsWith('app/'));
  };
  const isPublic = (root: string) => {
    const r = rel(root);
    return (
      isSignedOutEntry(root) || r.startsWith('features/public/') || r === 'features/onboarding/test-onboarding-page' || r.startsWith('app/')
    );
  };
  const isSignedOutPage = (root: string) =>
    ['pages/landing-page', 'features/auth/components/auth-layout'].includes(rel(root)) || rel(root).startsWith('features/auth/pages/');
  return {
    shell,
    pages,
    room: ['features/mixers/mixer-detail-page', 'features/messages/thread-page'].map(abs),
    isPublic,
    isSignedOutEntry,
    isSignedOutPage,
    queryLayout: abs('app/query-layout'),
    landing: abs('pages/landing-page'),
  };
}

/** Collects the module graph as the build parses it, for the chunk names (scripts/chunk-groups.ts). */
function collectModuleGraph(graph: ModuleGraph): Plugin {
  return {
    name: 'fancy:module-graph',
    apply: 'build',
    moduleParsed(info) {
      graph.add({
        id: info.id,
        importedIds: info.importedIds,
        dynamicallyImportedIds: info.dynamicallyImportedIds,
        isEntry: info.isEntry,
        code: info.code,
      });
    },
  };
}

const moduleGraph = new ModuleGraph();

/**
 * FANCY_TEST_NOW (scripts/test-at-moments.mjs): every process of the run — vitest's workers and the
 * servers tests spawn — loads the test clock first, from one shared anchor (tests/clock/test-now.mjs).
 */
if (testClockOffset() !== 0) {
  const clock = `--import=${new URL('./tests/clock/test-now.mjs', import.meta.url).href}`;
  if (!process.env.NODE_OPTIONS?.includes(clock)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${clock}`.trim();
}

export default defineConfig({
  // The signed-out pages' HTML, and every text asset also as .br and .gz, served by
  // @fastify/static's preCompressed (decision 015).
  plugins: [productionBuild(), react(), tailwindcss(), hashedThemeInit(), collectModuleGraph(moduleGraph), prerenderAndCompress()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // A feature's barrel (features/*/index.ts) only re-exports: importing a name from it loads
      // the module behind that name, not the feature's every module (scripts/chunk-groups.ts).
      treeshake: { moduleSideEffects: (id: string) => !FEATURE_BARREL.test(id) },
      output: {
        // Code only member pages use, and that the shell or two pages need, in one `member` chunk,
        // and TanStack Query with its layout in one `query` chunk, instead of dozens of small ones
        // (decision 018, scripts/chunk-groups.ts).
        codeSplitting: {
          groups: [{ name: chunkName(chunking(), moduleGraph), debugName: 'member-and-query', includeDependenciesRecursively: false }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/dev': { target: 'http://localhost:3000' },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['src/**/*.api.test.ts', 'node_modules/**'],
          environment: 'node',
          isolate: false,
          // A safety net, not a measurement, as for the other projects: beside the journeys in CI,
          // four scrypt hashes (password-hashing.test.ts) passed vitest's 5 s default.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['src/**/*.api.test.ts', 'tests/process/**/*.test.ts'],
          environment: 'node',
          // A worker loads the server's modules once for all its files, not once per file (the
          // imports were a fifth of the suite's time in CI): each file makes its own app and
          // database and leaves nothing behind (decision 042).
          isolate: false,
          // A safety net, not a measurement: beside the journeys in CI, creating a fresh embedded
          // database and migrating it (~5 s of CPU alone) passed 30 s.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
        },
      },
      {
        extends: true,
        test: {
          // Needs a PostgreSQL server: TEST_DATABASE_URL (run by .ci/run).
          name: 'pg',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          // A safety net, not a measurement: beside the other suites in CI a journey takes 2–3 times
          // as long as alone, and the admin pages' walk (twelve visits, six axe runs) passed 60 s there.
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // A journey's polls wait as long as Playwright's own waits (30 s): vitest's 1 s default
          // failed a poll for a socket subscription in CI while the cores were full.
          expect: { poll: { timeout: 30_000 } },
          // One journey at a time: beside the other suites in CI the cores are already full, and two
          // at once made slow tests time out (decisions 042, 043). A worker loads the server's modules
          // once for all its journeys.
          fileParallelism: false,
          isolate: false,
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
