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
 * Who reaches a module is worked out from the module graph: walking up its importers to the
 * lazy roots (dynamic-import targets) and the entry. Two packages are imported through a
 * barrel that re-exports everything (`lucide-react`, `radix-ui`): walking through the barrel
 * would make every icon look used by every page, so for those the walk only continues to the
 * importers that import a name the barrel re-exports from the module. Anything the walk cannot
 * read is taken as used by everyone (never captured), which is safe: at worst a module stays in
 * an automatic chunk.
 */
import path from 'node:path';

/** The part of rolldown's module info the walk reads. */
export interface ModuleFacts {
  importers: readonly string[];
  dynamicImporters: readonly string[];
  isEntry: boolean;
  code: string | null;
}
export type GetModuleInfo = (id: string) => ModuleFacts | null;

/** Stands for the bundle's entry (main.tsx) among a module's roots. */
export const ENTRY = '\0entry';

/** Barrel files whose re-exports are followed name by name. */
const BARRELS = [/[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/, /[\\/]node_modules[\\/]radix-ui[\\/]dist[\\/]index\.mjs$/];
const isBarrel = (id: string) => BARRELS.some((re) => re.test(id));

const bare = (id: string) => id.split('?')[0];

/** Does the import specifier `spec`, written in `from`, name the module `id`? */
function specifierNames(spec: string, from: string, id: string): boolean {
  const target = bare(id);
  if (spec.startsWith('.')) return path.resolve(path.dirname(bare(from)), spec) === target;
  return target.includes(`${path.sep}node_modules${path.sep}${spec.split('/').join(path.sep)}${path.sep}`);
}

/** The names in an `{ a, b as c, type d }` list: the local side for imports (`as`'s right), each item once. */
function listNames(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((item) => {
      const parts = item.split(/\s+as\s+/);
      return { imported: parts[0].trim(), exported: (parts[1] ?? parts[0]).trim() };
    })
    .map((p) => `${p.imported}\u0000${p.exported}`);
}

/** Export names of `barrel` that come from `id`, or undefined when the barrel's code does not say. */
export function barrelNamesFor(barrel: string, code: string, id: string): Set<string> | undefined {
  const names = new Set<string>();
  // export { default as A, default as AIcon } from './icons/a.mjs';
  for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    if (!specifierNames(m[2], barrel, id)) continue;
    for (const n of listNames(m[1])) names.add(n.split('\u0000')[1]);
  }
  // import * as Dialog from "@radix-ui/react-dialog"; … export { Dialog, … };
  const locals = new Set<string>();
  for (const m of code.matchAll(/import\s*\*\s*as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/g)) {
    if (specifierNames(m[2], barrel, id)) locals.add(m[1]);
  }
  if (locals.size) {
    for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*(?!\s*from)(?:;|$)/gm)) {
      for (const n of listNames(m[1])) {
        const [local, exported] = n.split('\u0000');
        if (locals.has(local)) names.add(exported);
      }
    }
  }
  return names.size ? names : undefined;
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
    for (const n of listNames(braces[1])) names.add(n.split('\u0000')[0]);
  }
  return found ? names : undefined;
}

/**
 * The lazy roots (dynamic-import targets) and ENTRY from which `id` is statically reachable:
 * what loading any of them brings in.
 */
export function rootsOf(id: string, info: GetModuleInfo): Set<string> {
  const roots = new Set<string>();
  const seen = new Set<string>([id]);
  const queue = [id];
  const visit = (next: string) => {
    if (seen.has(next)) return;
    seen.add(next);
    queue.push(next);
  };
  while (queue.length) {
    const current = queue.pop() as string;
    const facts = info(current);
    if (!facts) {
      roots.add(ENTRY);
      continue;
    }
    if (facts.isEntry) roots.add(ENTRY);
    if (facts.dynamicImporters.length) roots.add(current);
    for (const importer of facts.importers) {
      const barrel = isBarrel(importer) ? info(importer) : null;
      const names = barrel?.code ? barrelNamesFor(importer, barrel.code, current) : undefined;
      if (!barrel || !names) {
        visit(importer);
        continue;
      }
      // Through the barrel: only to the modules that import one of the names it re-exports from here.
      if (barrel.isEntry) roots.add(ENTRY);
      if (barrel.dynamicImporters.length) roots.add(importer);
      for (const user of barrel.importers) {
        const code = info(user)?.code;
        const taken = code ? importedNames(user, code, importer) : undefined;
        if (!taken || [...taken].some((n) => names.has(n))) visit(user);
      }
    }
  }
  return roots;
}

export interface MemberChunking {
  /** Absolute paths (no extension) of the modules every member page loads: the gate and the shell. */
  shell: readonly string[];
  /** Absolute paths (no extension) of the member pages' modules (the lazy roots under the shell). */
  pages: readonly string[];
}

/** Name of the chunk for code only member pages load. */
export const MEMBER_CHUNK = 'member';

/**
 * The group `name` function: `member` for a module reached only from the shell and the member
 * pages, and needed by the shell or by at least two of the pages; null (automatic splitting) for
 * everything else: anything the entry, a signed-out page or another lazy root reaches, and
 * what a single page alone uses (it stays in that page's chunk).
 */
export function memberChunkName({ shell, pages }: MemberChunking) {
  const noExt = (id: string) => bare(id).replace(/\.[cm]?[jt]sx?$/, '');
  const shellIds = new Set(shell);
  const memberIds = new Set([...shell, ...pages]);
  const cache = new Map<string, string | null>();
  return (id: string, ctx: { getModuleInfo: GetModuleInfo }): string | null => {
    const hit = cache.get(id);
    if (hit !== undefined) return hit;
    const roots = [...rootsOf(id, ctx.getModuleInfo)].map((r) => (r === ENTRY ? r : noExt(r)));
    const onlyMember = roots.length > 0 && roots.every((r) => memberIds.has(r));
    const name = onlyMember && (roots.some((r) => shellIds.has(r)) || roots.length >= 2) ? MEMBER_CHUNK : null;
    cache.set(id, name);
    return name;
  };
}
