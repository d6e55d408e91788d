import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { barrelExports, chunkName, ENTRY, evaluationOrder, FEATURE_BARREL, importCycle, ModuleGraph } from './chunk-groups';

const NM = '/app/node_modules';
const LUCIDE = `${NM}/lucide-react/dist/esm/lucide-react.mjs`;
const RADIX = `${NM}/radix-ui/dist/index.mjs`;
const icon = (name: string) => `${NM}/lucide-react/dist/esm/icons/${name}.mjs`;
const src = (name: string) => `/app/src/client/${name}.tsx`;
const SHARED = '/app/src/shared/onboarding.ts';
const SCHEMAS = '/app/src/shared/schemas/profile.ts';
const ZOD = `${NM}/zod/v4/classic/external.js`;
/** A schema that checks with zod, and shared code that reads it: apart from what every member page loads (issue 33). */
const ZOD_SCHEMA = '/app/src/shared/schemas/chat.ts';
const READS_SCHEMA = '/app/src/shared/chat-rules.ts';
/** A feature's barrel: the gate takes one flag from it, Home its picker. */
const BARREL = '/app/src/client/features/onboarding/index.ts';
const DEFERRED = '/app/src/client/features/onboarding/deferred.ts';
const PICKER = '/app/src/client/features/onboarding/picker.tsx';
/** What only the room's pages (a mixer, a conversation) use. */
const POPOVER = `${NM}/@radix-ui/react-popover/dist/index.mjs`;
const CHAT_TEXTS = '/app/src/shared/chat-texts.ts';

/** A small app: an entry, two signed-out pages, a public page under the query layout, the member shell and pages. */
function graph(): ModuleGraph {
  const mods: Record<string, { imports?: string[]; dynamic?: string[]; code?: string; entry?: boolean }> = {
    [src('main')]: {
      entry: true,
      imports: [
        src('router'),
        `${NM}/react/index.js`,
        `${NM}/react-dom/client.js`,
        `${NM}/react-router/dist/index.mjs`,
        `${NM}/clsx/dist/clsx.mjs`,
      ],
    },
    [src('router')]: {
      dynamic: [
        src('landing'),
        src('login'),
        src('query-layout'),
        src('status'),
        src('protected-route'),
        src('app-shell'),
        src('home'),
        src('mixers'),
        src('mixer'),
        src('thread'),
        src('admin'),
      ],
    },
    [src('landing')]: { imports: [LUCIDE, src('button')], code: `import { Heart } from "lucide-react";` },
    [src('login')]: { imports: [src('button'), RADIX], code: `import { Label } from 'radix-ui';` },
    [src('query-layout')]: { imports: [`${NM}/@tanstack/react-query/index.js`] },
    [src('status')]: { imports: [src('panel')] },
    [src('protected-route')]: { imports: [src('gate-notice'), BARREL], code: `import { isDeferred } from './features/onboarding';` },
    [BARREL]: { imports: [DEFERRED, PICKER], code: `export { isDeferred } from './deferred';\nexport { Picker } from './picker';` },
    [DEFERRED]: {},
    [PICKER]: {},
    [src('app-shell')]: {
      imports: [LUCIDE, RADIX, src('avatar'), SHARED, SCHEMAS],
      code: `import { Menu, X as Close } from 'lucide-react';\nimport { Dialog } from "radix-ui";`,
    },
    [src('home')]: {
      imports: [LUCIDE, src('card'), src('button'), src('home-only'), src('panel'), READS_SCHEMA, BARREL],
      code: `import {\n  Sparkles,\n  type LucideIcon,\n} from 'lucide-react';\nimport { Picker } from './features/onboarding';`,
    },
    [src('mixers')]: {
      imports: [LUCIDE, src('card'), RADIX, src('panel'), READS_SCHEMA],
      code: `import { Sparkles, Users } from 'lucide-react';\nimport * as R from 'radix-ui';`,
    },
    [src('mixer')]: { imports: [src('chat-line'), src('card'), POPOVER, CHAT_TEXTS] },
    [src('thread')]: { imports: [src('chat-line'), POPOVER, CHAT_TEXTS, READS_SCHEMA] },
    [src('chat-line')]: {},
    [POPOVER]: {},
    [CHAT_TEXTS]: {},
    [src('admin')]: { imports: [src('card'), src('admin-only')] },
    [READS_SCHEMA]: { imports: [ZOD_SCHEMA] },
    [ZOD_SCHEMA]: { imports: [ZOD] },
    [ZOD]: {},
    [src('card')]: {},
    [src('panel')]: {},
    [src('button')]: {},
    [src('home-only')]: {},
    [src('admin-only')]: {},
    [src('gate-notice')]: {},
    [src('avatar')]: {},
    [`${NM}/@tanstack/react-query/index.js`]: {},
    [`${NM}/react/index.js`]: {},
    [`${NM}/react-dom/client.js`]: { imports: [`${NM}/scheduler/index.js`] },
    [`${NM}/scheduler/index.js`]: {},
    [`${NM}/react-router/dist/index.mjs`]: {},
    [`${NM}/clsx/dist/clsx.mjs`]: {},
    [SHARED]: {},
    [SCHEMAS]: {},
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
  const g = new ModuleGraph();
  for (const [id, m] of Object.entries(mods)) {
    g.add({ id, importedIds: m.imports ?? [], dynamicallyImportedIds: m.dynamic ?? [], isEntry: Boolean(m.entry), code: m.code ?? '' });
  }
  return g;
}

const g = graph();
const noExt = (f: string) => f.replace(/\.tsx$/, '');
const isSignedOutEntry = (r: string) => /landing|login/.test(r);
const name = chunkName(
  {
    shell: [src('protected-route'), src('app-shell')].map(noExt),
    pages: [src('home'), src('mixers'), src('mixer'), src('thread')].map(noExt),
    room: [src('mixer'), src('thread')].map(noExt),
    isSignedOutEntry,
    isPublic: (r) => isSignedOutEntry(r) || /status|query-layout/.test(r),
    queryLayout: noExt(src('query-layout')),
    landing: noExt(src('landing')),
    isSignedOutPage: isSignedOutEntry,
  },
  g,
);

const chunkOf = (id: string) => name(id);

describe('the member and query chunks (decision 018)', () => {
  it('takes what the shell needs and what two member-side pages share, their icons and radix parts in member-vendor', () => {
    for (const id of [src('card'), src('protected-route'), src('app-shell'), src('gate-notice'), src('avatar')]) {
      expect(chunkOf(id), id).toBe('member');
    }
    // Packages and shared code apart, so the starter evaluates each in a task of its own (decision 028).
    for (const id of [icon('menu'), icon('x'), icon('sparkles'), `${NM}/@radix-ui/react-dialog/dist/index.mjs`]) {
      expect(chunkOf(id), id).toBe('member-vendor');
    }
    expect(chunkOf(SHARED)).toBe('member-shared');
    expect(chunkOf(SCHEMAS)).toBe('member-schemas');
  });

  it("puts what only the room's pages share, its packages and shared texts too, in the room chunk (issue 33)", () => {
    for (const id of [src('chat-line'), POPOVER, CHAT_TEXTS]) expect(chunkOf(id), id).toBe('room');
    // Shared with another page, or with the shell: where every member page finds it.
    expect(chunkOf(src('card'))).toBe('member');
    // Schemas stay apart (they load with their first use).
    expect(chunkOf(READS_SCHEMA)).toBe('schemas');
  });

  it('keeps zod, and the shared code that reaches it, in chunks of their own (issue 33)', () => {
    expect(chunkOf(ZOD)).toBe('zod');
    expect(chunkOf(ZOD_SCHEMA)).toBe('schemas');
    expect(chunkOf(READS_SCHEMA)).toBe('schemas');
    // Shared code that reaches no zod stays where every member page finds it.
    expect(chunkOf(SHARED)).toBe('member-shared');
  });

  it("keeps what the entry reaches in the entry chunk; leaves a signed-out page's own code, what one page alone uses, and what another lazy root shares", () => {
    for (const id of [src('main'), src('router')]) expect(chunkOf(id), id).toBe('entry');
    // The packages it reaches each in a chunk of their own (decision 028).
    expect(chunkOf(`${NM}/react/index.js`)).toBe('react');
    expect(chunkOf(`${NM}/react-dom/client.js`)).toBe('react-dom');
    expect(chunkOf(`${NM}/scheduler/index.js`)).toBe('react-dom');
    expect(chunkOf(`${NM}/react-router/dist/index.mjs`)).toBe('router');
    expect(chunkOf(`${NM}/clsx/dist/clsx.mjs`)).toBe('vendor');
    for (const id of [icon('heart'), src('landing'), src('login')]) {
      expect(chunkOf(id), id).toBeNull();
    }
    // Only /mixers: stays with its page.
    expect(chunkOf(icon('users'))).toBeNull();
    expect(chunkOf(src('home-only'))).toBeNull();
    expect(chunkOf(src('home'))).toBeNull();
    // Shared by member pages with a public page: the common chunk, not a file of its own.
    expect(chunkOf(src('panel'))).toBe('common');
    // One member-side root alone (an admin page): stays with it.
    expect(chunkOf(src('admin-only'))).toBeNull();
  });

  it("puts what a signed-out page shares with member pages with that page: the landing page's share, the sign-in pages' share", () => {
    expect(chunkOf(src('button'))).toBe('landing-shared');
    // Label: /login and /mixers (through a namespace import).
    expect(chunkOf(`${NM}/@radix-ui/react-label/dist/index.mjs`)).toBe('auth-shared');
  });

  it('puts what the query layout needs, and no signed-out entry page reaches, in the query chunk', () => {
    expect(chunkOf(`${NM}/@tanstack/react-query/index.js`)).toBe('query');
    expect(chunkOf(src('query-layout'))).toBe('query');
  });

  it("goes through a feature's barrel only to the modules behind the names imported (issue 33)", () => {
    // The gate (shell) takes the flag: every member page's. Home alone takes the picker: Home's.
    expect(chunkOf(DEFERRED)).toBe('member');
    expect(chunkOf(PICKER)).toBeNull();
    expect(g.roots(PICKER)).toEqual(new Set([src('home')]));
    // The barrel goes where its importers' code goes (it has no code of its own once bundled).
    expect(chunkOf(BARREL)).toBe('member');
  });

  it("has feature barrels that only re-export: the bundle drops a barrel's own code (vite.config.ts)", () => {
    const features = path.join(import.meta.dirname, '../src/client/features');
    const barrels = readdirSync(features)
      .map((f) => path.join(features, f, 'index.ts'))
      .filter((f) => FEATURE_BARREL.test(f) && readdirSync(path.dirname(f)).includes('index.ts'));
    expect(barrels.length).toBeGreaterThan(5);
    for (const file of barrels) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      const statements = code
        .split(';')
        .map((st) => st.trim())
        .filter(Boolean);
      for (const st of statements) expect(st, file).toMatch(/^export\s+(type\s+)?(\{[^}]*\}|\*)\s+from\s+['"][^'"]+['"]$/);
    }
  });

  it('goes through a barrel only to the modules behind the names imported', () => {
    expect([...g.roots(icon('heart'))]).toEqual([src('landing')]);
    expect(g.roots(icon('sparkles'))).toEqual(new Set([src('home'), src('mixers')]));
    expect(barrelExports(`export { default as X, default as XIcon } from './icons/x.mjs';`)).toEqual(
      new Map([
        ['X', './icons/x.mjs'],
        ['XIcon', './icons/x.mjs'],
      ]),
    );
    // A namespace import of the barrel takes everything: /mixers counts for every radix part.
    expect(g.roots(`${NM}/@radix-ui/react-label/dist/index.mjs`)).toEqual(new Set([src('login'), src('mixers')]));
  });

  it("counts a module it cannot place as the entry's", () => {
    expect(g.roots('/app/unknown.js')).toEqual(new Set([ENTRY]));
    expect(chunkOf('/app/unknown.js')).toBe('entry');
  });
});

describe("a member page's evaluation order (decision 029)", () => {
  const chunks = new Map<string, { imports: string[] }>([
    ['entry.js', { imports: ['react-dom.js', 'react.js', 'app.js'] }],
    ['react-dom.js', { imports: ['react.js'] }],
    ['react.js', { imports: [] }],
    ['app.js', { imports: ['react.js', 'member.js'] }],
    ['member.js', { imports: ['react.js', 'app.js'] }],
    ['page.js', { imports: ['member.js', 'entry.js'] }],
  ]);

  it('puts every chunk after the chunks it imports, each once, and ends where an import cycle closes', () => {
    const order = evaluationOrder(['entry.js', 'page.js', 'react.js'], chunks);
    expect(order).toEqual(['react.js', 'react-dom.js', 'member.js', 'app.js', 'entry.js', 'page.js']);
    for (const [file, { imports }] of chunks) {
      if (file === 'member.js') continue; // in a cycle with app.js: evaluated with it
      for (const dep of imports) expect(order.indexOf(dep), `${dep} before ${file}`).toBeLessThan(order.indexOf(file));
    }
  });
});

describe('importCycle', () => {
  const chunks = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([f, imports]) => [f, { imports }]));
  it('finds chunks that import each other, directly or through others', () => {
    expect(importCycle(chunks({ a: ['b'], b: ['a'] }))).toEqual(['a', 'b', 'a']);
    expect(importCycle(chunks({ entry: ['shared'], shared: ['schemas'], schemas: ['text', 'shared'], text: [] }))).toEqual([
      'shared',
      'schemas',
      'shared',
    ]);
  });
  it('passes a bundle whose imports go one way', () => {
    expect(importCycle(chunks({ entry: ['shared', 'schemas'], shared: ['schemas'], schemas: ['text'], text: [] }))).toBeNull();
  });
});
