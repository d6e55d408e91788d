/**
 * `npm run lint:deps`, second half: no two domains use each other, however many files lie
 * between (dependency-cruiser's `no-circular` sees file circles only). A domain is a folder of
 * src/server/modules or src/client/features; an edge is any import (type-only and dynamic
 * included) from shipped code, tests left out. Prints each loop and exits 1 when there is one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOMAIN_ROOTS = ['src/server/modules', 'src/client/features'];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const TEST = /\.test\.tsx?$/;

function domainOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  for (const root of DOMAIN_ROOTS) {
    if (rel.startsWith(`${root}/`)) {
      const rest = rel.slice(root.length + 1);
      const name = rest.split('/')[0];
      // A file directly in the root belongs to no domain; `../onboarding` (its index) does.
      const inFolder = rest.includes('/') || (existsSync(file) && statSync(file).isDirectory());
      return inFolder ? `${root}/${name}` : null;
    }
  }
  return null;
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(entry) && !TEST.test(entry)) yield full;
  }
}

/** domain → domains it imports from, with one file that does it (for the message). */
export function domainGraph() {
  const graph = new Map();
  for (const root of DOMAIN_ROOTS) {
    for (const file of sourceFiles(path.join(ROOT, root))) {
      const from = domainOf(file);
      if (!from) continue;
      const edges = graph.get(from) ?? new Map();
      graph.set(from, edges);
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        if (!spec.startsWith('.')) continue;
        const to = domainOf(path.resolve(path.dirname(file), spec));
        if (to && to !== from && !edges.has(to)) edges.set(to, path.relative(ROOT, file));
      }
    }
  }
  return graph;
}

/** Strongly connected groups of more than one domain (Tarjan). */
export function loops(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = domainGraph();
  const found = loops(graph);
  for (const group of found) {
    console.error(`module loop: ${group.join(' ↔ ')}`);
    for (const from of group)
      for (const [to, file] of graph.get(from) ?? []) if (group.includes(to)) console.error(`  ${from} → ${to} (${file})`);
  }
  if (found.length) {
    console.error(
      `\n${found.length} module loop(s): give what both sides need a service of its own (src/server/lib, src/shared, src/client/lib or components).`,
    );
    process.exit(1);
  }
  console.log(`no module loops (${graph.size} domains)`);
}
