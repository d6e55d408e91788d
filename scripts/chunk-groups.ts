/**
 * How the client bundle is cut into chunks for member pages (issue 19, decision 018).
 *
 * Rolldown's automatic splitting gives every combination of lazy pages that share a module its
 * own chunk: a member page then loads 45–80 small files (one per icon, per radix package, per
 * helper shared by two pages), which a phone on HTTP/1.1 fetches six at a time. This module
 * names a `member` chunk instead for the code that only member pages use and that every member
 * page (the shell) or at least two of them need, so a member page loads the entry, that chunk
 * and its own page chunk, while the signed-out pages (`/`, `/auth/*`) keep exactly the chunks
 * they had: a module any of them (or the entry) reaches is never captured.
 *
 * Who reaches a module is worked out from the module graph (collected by `moduleParsed`): from
 * each lazy root (dynamic-import target) and the entry down its static imports. Two packages
 * (`lucide-react`, `radix-ui`) and each feature of the app (`features/<name>/index.ts`) are
 * imported through a barrel that re-exports everything: going through the barrel would make every
 * icon look used by every page, so from a module importing the barrel the walk only goes on to the
 * modules behind the names it imports. An import the walk cannot read takes the whole barrel,
 * which is safe: at worst a module stays in an automatic chunk.
 */
import path from 'node:path';

/** Stands for the bundle's entry (main.tsx) among a module's roots. */
export const ENTRY = '\0entry';

/** A feature's barrel: re-exports only, so the bundle treats it as having no side effects (vite.config.ts). */
export const FEATURE_BARREL = /[\\/]src[\\/]client[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;
/** Barrel files whose re-exports are followed name by name. */
const BARRELS = [
  /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/,
  /[\\/]node_modules[\\/]radix-ui[\\/]dist[\\/]index\.mjs$/,
  // A feature's public surface (what other features import): the onboarding wizard's pickers are
  // not every member page's because the gate takes one flag from it (issue 33).
  FEATURE_BARREL,
];
const isBarrel = (id: string) => BARRELS.some((re) => re.test(id));

const bare = (id: string) => id.split('?')[0];

/** Does the import specifier `spec`, written in `from`, name the module `id`? */
function specifierNames(spec: string, from: string, id: string): boolean {
  const target = bare(id);
  if (spec.startsWith('.')) {
    const resolved = path.resolve(path.dirname(bare(from)), spec);
    const noExt = target.replace(/\.[cm]?[jt]sx?$/, '');
    return target === resolved || noExt === resolved || noExt === path.join(resolved, 'index');
  }
  return target.includes(`${path.sep}node_modules${path.sep}${spec.split('/').join(path.sep)}${path.sep}`);
}

/** The items of an `{ a, b as c, type d }` list as [imported, exported] names. */
function listNames(list: string): [string, string][] {
  return list
    .split(',')
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((item) => {
      const parts = item.split(/\s+as\s+/);
      return [parts[0].trim(), (parts[1] ?? parts[0]).trim()];
    });
}

/** A barrel's export names and, for each, the import specifier it re-exports from. */
export function barrelExports(code: string): Map<string, string> {
  const exports = new Map<string, string>();
  // export { default as A, default as AIcon } from './icons/a.mjs';
  for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    for (const [, exported] of listNames(m[1])) exports.set(exported, m[2]);
  }
  // import * as Dialog from "@radix-ui/react-dialog"; … export { Dialog, … };
  const locals = new Map<string, string>();
  for (const m of code.matchAll(/import\s*\*\s*as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/g)) locals.set(m[1], m[2]);
  for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*(?!\s*from)(?:;|$)/gm)) {
    for (const [local, exported] of listNames(m[1])) {
      const spec = locals.get(local);
      if (spec) exports.set(exported, spec);
    }
  }
  return exports;
}

/** The names `importer` takes from `barrel`, or undefined when it takes them in a way not read here (namespace, default, `export *`). */
export function importedNames(importer: string, code: string, barrel: string): Set<string> | undefined {
  const names = new Set<string>();
  let found = false;
  for (const m of code.matchAll(/(import|export)\s*([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    if (!specifierNames(m[3], importer, barrel)) continue;
    found = true;
    const clause = m[2].trim().replace(/^type\s+/, '');
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (!braces) return undefined;
    for (const [imported] of listNames(braces[1])) names.add(imported);
  }
  return found ? names : undefined;
}

/** What the `moduleParsed` hook tells about a module: its own imports. */
export interface ParsedModule {
  id: string;
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
  isEntry: boolean;
  code: string | null;
}

/**
 * The module graph as the build parsed it, and for each module the lazy roots (dynamic-import
 * targets) and ENTRY whose loading brings it in, worked out once for all modules.
 */
export class ModuleGraph {
  private readonly parsed = new Map<string, ParsedModule>();
  private rootsById: Map<string, Set<string>> | undefined;

  add(module: ParsedModule) {
    this.parsed.set(module.id, module);
    this.rootsById = undefined;
  }

  /** Whether `id` imports a module `test` matches, directly or through modules `through` matches. */
  reaches(id: string, test: RegExp, through: RegExp, seen = new Set<string>()): boolean {
    if (seen.has(id)) return false;
    seen.add(id);
    return (this.parsed.get(id)?.importedIds ?? []).some(
      (dep) => test.test(dep) || (through.test(dep) && this.reaches(dep, test, through, seen)),
    );
  }

  /** The roots of `id`; a module the graph does not know counts as the entry's. */
  roots(id: string): Set<string> {
    this.rootsById ??= this.computeRoots();
    return this.rootsById.get(id) ?? new Set([ENTRY]);
  }

  private computeRoots(): Map<string, Set<string>> {
    const roots = new Map<string, Set<string>>();
    const starts: [string, string][] = [];
    const dynamicTargets = new Set<string>();
    for (const m of this.parsed.values()) {
      if (m.isEntry) starts.push([ENTRY, m.id]);
      for (const d of m.dynamicallyImportedIds) dynamicTargets.add(d);
    }
    for (const d of dynamicTargets) starts.push([d, d]);
    // Per barrel: the module behind each export name.
    const barrels = new Map<string, Map<string, string | undefined>>();
    const behind = (barrel: string, name: string): string | undefined => {
      let index = barrels.get(barrel);
      if (!index) {
        const b = this.parsed.get(barrel);
        index = new Map();
        for (const [exported, spec] of barrelExports(b?.code ?? '')) {
          index.set(
            exported,
            b?.importedIds.find((dep) => specifierNames(spec, barrel, dep)),
          );
        }
        barrels.set(barrel, index);
      }
      return index.get(name);
    };
    for (const [root, start] of starts) {
      const seen = new Set<string>();
      const stack = [start];
      while (stack.length) {
        const id = stack.pop() as string;
        if (seen.has(id)) continue;
        seen.add(id);
        const set = roots.get(id) ?? new Set<string>();
        roots.set(id, set);
        set.add(root);
        const m = this.parsed.get(id);
        if (!m) continue;
        for (const dep of m.importedIds) {
          const names = isBarrel(dep) && m.code ? importedNames(id, m.code, dep) : undefined;
          if (!names) {
            stack.push(dep);
            continue;
          }
          // Through the barrel: only to the modules behind the names imported (an unknown name takes
          // it all). The barrel itself is reached too, so it goes where its importers' code goes.
          const barrelRoots = roots.get(dep) ?? new Set<string>();
          roots.set(dep, barrelRoots);
          barrelRoots.add(root);
          for (const name of names) {
            const target = behind(dep, name);
            if (target) stack.push(target);
            else if (!m.code?.includes(`type ${name}`)) stack.push(dep);
          }
        }
      }
    }
    return roots;
  }
}

export interface MemberChunking {
  /** Absolute paths (no extension) of the modules every member page loads: the gate and the shell. */
  shell: readonly string[];
  /** Absolute paths (no extension) of the member pages' modules (the lazy roots under the shell). */
  pages: readonly string[];
  /** Those of `pages` that hold the room (a mixer's chat, a conversation): what only they share is the room chunk. */
  room: readonly string[];
  /**
   * Lazy roots a visitor who is not signed in can load (signed-out pages, their lazy parts, what
   * the entry loads lazily): nothing they reach goes into the member chunk.
   */
  isPublic(root: string): boolean;
  /** The layout that brings TanStack Query (absolute, no extension): also used by some signed-out pages. */
  queryLayout: string;
  /** Roots of the signed-out entry pages (`/`, `/auth/*`) and their lazy parts: nothing they reach goes into the member or query chunk. */
  isSignedOutEntry(root: string): boolean;
  /** The landing page's module (absolute, no extension). */
  landing: string;
  /** The signed-out entry pages' own route modules (not their lazy parts): what they share with member pages is loaded with them. */
  isSignedOutPage(root: string): boolean;
}

/** The group for everything the entry reaches: rolldown merges it into the entry chunk. */
export const ENTRY_CHUNK = 'entry';
/** Name of the chunk for code only member pages load. */
export const MEMBER_CHUNK = 'member';
/** Name of the chunk for the query layout's code (TanStack Query), shared by member pages and a few signed-out ones. */
export const QUERY_CHUNK = 'query';
/** Code the landing page shares with member pages (the landing page needs all of it). */
export const LANDING_SHARED_CHUNK = 'landing-shared';
/** Code the sign-in pages (not the landing page) share with member pages. */
export const AUTH_SHARED_CHUNK = 'auth-shared';
/**
 * Code member pages share with what a signed-out page loads lazily (zod for a form's submit) or
 * with a public page (/status, /appeal): automatic splitting made a file of each combination of
 * roots, a dozen files of a few hundred bytes each that a member page fetched six at a time on a
 * phone's HTTP/1.1 (issue 33); one chunk for the app's code, one for the packages.
 */
export const COMMON_CHUNK = 'common';
export const COMMON_VENDOR_CHUNK = 'common-vendor';
/**
 * What only the room's pages (a mixer, a conversation) share: the chat's lines, reactions, menus
 * and dialogs. In the member chunk every member page loaded it at start (issue 33).
 */
export const ROOM_CHUNK = 'room';

/**
 * The packages the entry reaches, by chunk: React DOM, React, the router, the rest (`vendor`). A member
 * page's starter evaluates the page's chunks one per task (decision 029), so no chunk is so big
 * that evaluating it is a long task on a slow phone.
 */
const ENTRY_VENDORS: [RegExp, string][] = [
  [/[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, 'react-dom'],
  [/[\\/]node_modules[\\/]react[\\/]/, 'react'],
  [/[\\/]node_modules[\\/]react-router[\\/]/, 'router'],
];
const PACKAGE = /[\\/]node_modules[\\/]/;
/** The packages (icons, radix parts) of what would be in the member chunk. */
export const MEMBER_VENDOR_CHUNK = 'member-vendor';
/** The code from src/shared (schemas, catalogues) of what would be in the member chunk. */
export const MEMBER_SHARED_CHUNK = 'member-shared';
/** The shared schemas (zod: making them is most of the cost of evaluating shared code) of what would be in the member chunk. */
export const MEMBER_SCHEMAS_CHUNK = 'member-schemas';
const SHARED_CODE = /[\\/]src[\\/]shared[\\/]/;
/**
 * zod, and the shared code that needs it (the schemas), apart from every other group (issue 33):
 * grouped with code all member pages load (texts and limits beside the schemas), it made every
 * member page load ~27 KB of zod at start. Now only a page (or a lazy part) that checks a schema
 * loads these two chunks.
 */
export const ZOD_CHUNK = 'zod';
export const SCHEMAS_CHUNK = 'schemas';
const ZOD_PACKAGE = /[\\/]node_modules[\\/]zod[\\/]/;
const SHARED_SCHEMAS = /[\\/]src[\\/]shared[\\/]schemas[\\/]/;
/** The chunk of a package the entry reaches; undefined for the app's own code. */
const vendorChunk = (id: string) => (PACKAGE.test(id) ? (ENTRY_VENDORS.find(([re]) => re.test(id))?.[1] ?? 'vendor') : undefined);

/**
 * The group `name` function. `member` for a module reached only from member-side roots, at least
 * one of them the shell or two of them member pages: what the shell needs, or what pages share
 * (its packages in `member-vendor`, its src/shared code in `member-shared`); but `room` for what
 * only the room's pages share, the shell not among its roots.
 * `query` for what the query layout needs and no signed-out entry page reaches. What a signed-out
 * entry page shares with the member shell or pages: `landing-shared` when the landing page uses
 * it (so `/` loads nothing it does not run), else `auth-shared`. What member pages share with a
 * signed-out page's lazy parts or a public page (and the query layout does not need): `common`,
 * its packages in `common-vendor`. Null (automatic splitting) for
 * everything else: what a signed-out page alone uses, what a single page
 * alone uses (it stays in that page's chunk). `entry` for the app code the entry reaches: it stays
 * in the entry chunk, in one file; the packages it reaches go by ENTRY_VENDORS.
 *
 * Every chunk's imports stay acyclic: a module's imports are reached from at least the same roots.
 */
export function chunkName(opts: MemberChunking, graph: ModuleGraph) {
  const noExt = (id: string) => bare(id).replace(/\.[cm]?[jt]sx?$/, '');
  const shellIds = new Set(opts.shell);
  const pageIds = new Set(opts.pages);
  const roomIds = new Set(opts.room);
  const cache = new Map<string, string | null>();
  const decide = (id: string, roots: string[]): string | null => {
    if (!roots.length) return null;
    // With the entry: rolldown would otherwise split out the few entry modules lazy chunks import
    // too (jsx runtime, constants, the icon factory): four more requests on every page.
    if (roots.includes(ENTRY)) return vendorChunk(id) ?? ENTRY_CHUNK;
    const pages = roots.filter((r) => pageIds.has(r)).length;
    const member = pages > 0 || roots.some((r) => shellIds.has(r));
    // What member pages need and only signed-out pages' lazy parts or public pages share: one
    // chunk (its packages in another) instead of one file per combination of roots.
    const common = () => {
      if (!member || roots.includes(opts.queryLayout)) return null;
      return PACKAGE.test(id) ? COMMON_VENDOR_CHUNK : COMMON_CHUNK;
    };
    if (roots.some(opts.isSignedOutEntry)) {
      // What a signed-out page loads lazily (a schema on submit, a two-factor step) stays lazy.
      if (!roots.some(opts.isSignedOutPage)) return common();
      if (roots.some((r) => opts.isSignedOutEntry(r) && !opts.isSignedOutPage(r))) return null;
      if (!member) return null;
      return roots.includes(opts.landing) ? LANDING_SHARED_CHUNK : AUTH_SHARED_CHUNK;
    }
    if (roots.includes(opts.queryLayout)) return QUERY_CHUNK;
    if (roots.some(opts.isPublic)) return common();
    const shell = roots.some((r) => shellIds.has(r));
    if (!(shell || pages >= 2)) return null;
    // Shared code that reads a schema goes with the schemas: the shared chunk never imports the
    // schemas chunk, which imports it (chunks that import each other break, see importCycle).
    const schemas = SHARED_SCHEMAS.test(id) || (SHARED_CODE.test(id) && graph.reaches(id, SHARED_SCHEMAS, SHARED_CODE));
    if (!shell && !schemas && roots.every((r) => !pageIds.has(r) || roomIds.has(r))) return ROOM_CHUNK;
    if (PACKAGE.test(id)) return MEMBER_VENDOR_CHUNK;
    if (schemas) return MEMBER_SCHEMAS_CHUNK;
    return SHARED_CODE.test(id) ? MEMBER_SHARED_CHUNK : MEMBER_CHUNK;
  };
  const withSchemasApart = (id: string, name: string | null): string | null => {
    if (!name || name === ENTRY_CHUNK || ENTRY_VENDORS.some(([, chunk]) => chunk === name) || name === 'vendor') return name;
    if (ZOD_PACKAGE.test(id)) return ZOD_CHUNK;
    if (SHARED_CODE.test(id) && graph.reaches(id, ZOD_PACKAGE, SHARED_CODE)) return SCHEMAS_CHUNK;
    return name;
  };
  return (id: string): string | null => {
    const hit = cache.get(id);
    if (hit !== undefined) return hit;
    const name = withSchemasApart(
      id,
      decide(
        id,
        [...graph.roots(id)].map((r) => (r === ENTRY ? r : noExt(r))),
      ),
    );
    cache.set(id, name);
    return name;
  };
}

/**
 * `files` (built chunks, with the chunks each imports) in an order the browser can evaluate them
 * one by one, each after the chunks it imports (a chunk in an import cycle comes with the others):
 * a member page's starter evaluates them one per task, so no task of a slow phone evaluates the
 * whole bundle at once (decision 029).
 */
export function evaluationOrder(files: readonly string[], chunks: ReadonlyMap<string, { imports: readonly string[] }>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
    order.push(file);
  };
  for (const f of files) visit(f);
  return order;
}

/**
 * The first import cycle among built chunks (`a → b → … → a`), or null. Two chunks that import
 * each other are evaluated one before the other, and the first reads the other's exports while
 * they are still undefined (issue 29's chat schemas did: every member page failed); the build
 * refuses such a bundle (vite.config.ts).
 */
export function importCycle(chunks: ReadonlyMap<string, { imports: readonly string[] }>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const dep of chunks.get(file)?.imports ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of chunks.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}
