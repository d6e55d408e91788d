import { describe, expect, it } from 'vitest';
import { barrelNamesFor, ENTRY, type ModuleFacts, memberChunkName, rootsOf } from './chunk-groups';

const NM = '/app/node_modules';
const LUCIDE = `${NM}/lucide-react/dist/esm/lucide-react.mjs`;
const RADIX = `${NM}/radix-ui/dist/index.mjs`;
const icon = (name: string) => `${NM}/lucide-react/dist/esm/icons/${name}.mjs`;
const src = (name: string) => `/app/src/client/${name}.tsx`;

/** A small app: an entry, two signed-out pages, the member shell and two member pages. */
function graph(): Record<string, ModuleFacts> {
  const mods: Record<string, { imports?: string[]; dynamic?: string[]; code?: string; entry?: boolean }> = {
    [src('main')]: { entry: true, imports: [src('router'), `${NM}/react/index.js`] },
    [src('router')]: {
      dynamic: [src('landing'), src('login'), src('protected-route'), src('app-shell'), src('home'), src('mixers'), src('admin')],
    },
    [src('landing')]: { imports: [LUCIDE, src('button')], code: `import { Heart } from "lucide-react";` },
    [src('login')]: { imports: [src('button'), RADIX], code: `import { Label } from 'radix-ui';` },
    [src('protected-route')]: { imports: [src('gate-notice')] },
    [src('app-shell')]: { imports: [LUCIDE, RADIX, src('avatar')], code: `import { Menu, X as Close } from 'lucide-react';\nimport { Dialog } from "radix-ui";` },
    [src('home')]: { imports: [LUCIDE, src('card'), src('button'), src('home-only')], code: `import {\n  Sparkles,\n  type LucideIcon,\n} from 'lucide-react';` },
    [src('mixers')]: { imports: [LUCIDE, src('card'), RADIX], code: `import { Sparkles, Users } from 'lucide-react';\nimport * as R from 'radix-ui';` },
    [src('admin')]: { imports: [src('card')] },
    [src('card')]: {},
    [src('button')]: {},
    [src('home-only')]: {},
    [src('gate-notice')]: {},
    [src('avatar')]: {},
    [LUCIDE]: {
      imports: ['heart', 'menu', 'x', 'sparkles', 'users'].map(icon),
      code: [
        `import * as index from './icons/index.mjs';`,
        `export { index as icons };`,
        `export { default as Heart, default as HeartIcon } from './icons/heart.mjs';`,
        `export { default as Menu } from './icons/menu.mjs';`,
        `export { default as X, default as XIcon } from './icons/x.mjs';`,
        `export { default as Sparkles } from './icons/sparkles.mjs';`,
        `export { default as Users } from './icons/users.mjs';`,
      ].join('\n'),
    },
    [RADIX]: {
      imports: [`${NM}/@radix-ui/react-dialog/dist/index.mjs`, `${NM}/@radix-ui/react-label/dist/index.mjs`],
      code: `import * as Dialog from "@radix-ui/react-dialog";\nimport * as Label from "@radix-ui/react-label";\nexport {\n  Dialog,\n  Label\n};`,
    },
  };
  for (const name of ['heart', 'menu', 'x', 'sparkles', 'users']) mods[icon(name)] = {};
  mods[`${NM}/@radix-ui/react-dialog/dist/index.mjs`] = {};
  mods[`${NM}/@radix-ui/react-label/dist/index.mjs`] = {};
  const facts: Record<string, ModuleFacts> = {};
  for (const [id, m] of Object.entries(mods)) facts[id] = { importers: [], dynamicImporters: [], isEntry: Boolean(m.entry), code: m.code ?? '' };
  for (const [id, m] of Object.entries(mods)) {
    for (const dep of m.imports ?? []) (facts[dep].importers as string[]).push(id);
    for (const dep of m.dynamic ?? []) (facts[dep].dynamicImporters as string[]).push(id);
  }
  return facts;
}

const facts = graph();
const info = (id: string) => facts[id] ?? null;
const name = memberChunkName({
  shell: [src('protected-route'), src('app-shell')].map((f) => f.replace(/\.tsx$/, '')),
  pages: [src('home'), src('mixers')].map((f) => f.replace(/\.tsx$/, '')),
});
const chunkOf = (id: string) => name(id, { getModuleInfo: info });

describe('the member chunk (decision 018)', () => {
  it('takes what the shell needs and what two member pages share, including their icons and radix parts', () => {
    for (const id of [src('protected-route'), src('app-shell'), src('gate-notice'), src('avatar'), icon('menu'), icon('x'), icon('sparkles')]) {
      expect(chunkOf(id), id).toBe('member');
    }
    expect(chunkOf(`${NM}/@radix-ui/react-dialog/dist/index.mjs`)).toBe('member');
  });

  it('leaves what the entry or a signed-out page reaches, what one page alone uses, and what another lazy root shares', () => {
    for (const id of [src('main'), `${NM}/react/index.js`, src('button'), icon('heart'), src('landing'), src('login')]) {
      expect(chunkOf(id), id).toBeNull();
    }
    // Only /mixers: stays with its page.
    expect(chunkOf(icon('users'))).toBeNull();
    expect(chunkOf(src('home-only'))).toBeNull();
    expect(chunkOf(src('home'))).toBeNull();
    // Shared with an admin page (not loaded with the shell): automatic.
    expect(chunkOf(src('card'))).toBeNull();
    // /login uses Label through the barrel.
    expect(chunkOf(`${NM}/@radix-ui/react-label/dist/index.mjs`)).toBeNull();
  });

  it('walks through a barrel only to the modules importing one of its names from that module', () => {
    expect([...rootsOf(icon('heart'), info)]).toEqual([src('landing')]);
    expect(new Set(rootsOf(icon('sparkles'), info))).toEqual(new Set([src('home'), src('mixers')]));
    expect(barrelNamesFor(LUCIDE, facts[LUCIDE].code as string, icon('x'))).toEqual(new Set(['X', 'XIcon']));
    // A namespace import of the barrel takes everything: /mixers counts for every radix part.
    expect(rootsOf(`${NM}/@radix-ui/react-label/dist/index.mjs`, info)).toEqual(new Set([src('login'), src('mixers')]));
  });

  it('counts a module it cannot place as used by everyone', () => {
    expect(rootsOf('/app/unknown.js', info)).toEqual(new Set([ENTRY]));
    expect(chunkOf('/app/unknown.js')).toBeNull();
  });
});
