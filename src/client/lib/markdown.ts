import { Marked, type Tokens } from 'marked';

/**
 * Markdown for the blog and the legal pages: our own content, rendered without raw HTML
 * (any HTML in the source is shown as text) and with links and images limited to relative
 * or https URLs. Import this only from lazily loaded pages: `marked` is not small.
 */

export interface FrontMatter {
  data: Record<string, string>;
  body: string;
}

/** Splits `---\nkey: value\n---\n` front matter from the body. Values may be bare, "double" or 'single' quoted. */
export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  const data: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    data[kv[1]] = unquote(kv[2].trim());
  }
  return { data, body: text.slice(match[0].length) };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A link target we are willing to render: relative (`/mixers`, `#section`, `faq`) or https.
 * Everything else — javascript:, data:, http:, protocol-relative `//host` — is refused.
 */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith('//') || trimmed.startsWith('\\')) return null;
  let url: URL;
  try {
    // Resolving the way a browser would also strips the tabs/newlines that hide a scheme.
    url = new URL(trimmed, 'https://relative.invalid/');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  if (url.host === 'relative.invalid') {
    // A relative link must not smuggle a scheme or host through oddities the base resolved away.
    const visible = [...trimmed].filter((c) => c.charCodeAt(0) > 32).join('');
    return /^[a-z][a-z0-9+.-]*:/i.test(visible) ? null : trimmed;
  }
  return url.href;
}

/** A URL-friendly id for a heading: "1. Who we are" → "1-who-we-are". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export interface Heading {
  depth: number;
  text: string;
  id: string;
}

export interface RenderedMarkdown {
  html: string;
  /** Level-2 and level-3 headings in order, for a table of contents. */
  headings: Heading[];
}

let collecting: { headings: Heading[]; seen: Map<string, number> } | null = null;

const md = new Marked({ gfm: true, async: false });
md.use({
  renderer: {
    // Raw HTML in the source (block or inline) is shown as text, never interpreted.
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    heading(token) {
      const inner = this.parser.parseInline(token.tokens);
      const plain = this.parser.parseInline(token.tokens, this.parser.textRenderer);
      let id = slugify(plain) || 'section';
      if (collecting) {
        const n = collecting.seen.get(id) ?? 0;
        collecting.seen.set(id, n + 1);
        if (n) id = `${id}-${n + 1}`;
        if (token.depth === 2 || token.depth === 3) collecting.headings.push({ depth: token.depth, text: plain, id });
      }
      return `<h${token.depth} id="${escapeHtml(id)}">${inner}</h${token.depth}>\n`;
    },
    link(token) {
      const inner = this.parser.parseInline(token.tokens);
      const href = safeHref(token.href);
      if (!href) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      const external = /^https:/i.test(href) ? ' rel="noopener noreferrer"' : '';
      return `<a href="${escapeHtml(href)}"${title}${external}>${inner}</a>`;
    },
    image(token) {
      const src = safeHref(token.href);
      if (!src) return escapeHtml(token.text);
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}"${title} loading="lazy">`;
    },
  },
});

/** Markdown → HTML that is safe to insert: no raw HTML, only relative or https links. */
export function renderMarkdown(source: string): RenderedMarkdown {
  collecting = { headings: [], seen: new Map() };
  try {
    const html = md.parse(source, { async: false });
    return { html, headings: collecting.headings };
  } finally {
    collecting = null;
  }
}

/**
 * Makes plain `<a href="/path">` links inside rendered Markdown navigate inside the app
 * (no full page load). Returns the cleanup for a React effect.
 */
export function interceptInternalLinks(container: HTMLElement | null, navigate: (to: string) => void): () => void {
  if (!container) return () => {};
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || !container.contains(anchor) || anchor.target || anchor.hasAttribute('download')) return;
    const href = anchor.getAttribute('href') ?? '';
    if (!href.startsWith('/') || href.startsWith('//')) return;
    event.preventDefault();
    navigate(href);
  };
  container.addEventListener('click', onClick);
  return () => container.removeEventListener('click', onClick);
}

/** Words ÷ 200, rounded up; at least one minute. */
export function readingMinutes(markdown: string): number {
  const words = markdown
    .replace(/[#>*_`~[\]()|-]+/g, ' ')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return Math.max(1, Math.ceil(words / 200));
}

const GB_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "2026-08-14" → "14 August 2026". Anything unparseable is returned as it came. */
export function formatDateGB(isoDate: string): string {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? `${isoDate}T00:00:00Z` : isoDate);
  return Number.isNaN(d.getTime()) ? isoDate : GB_DATE.format(d);
}
