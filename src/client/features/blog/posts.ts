import { formatDateGB, type Heading, parseFrontMatter, readingMinutes, renderMarkdown } from '../../lib/markdown';

/** Modern Loveletters: Markdown files under content/blog, each loaded only when needed. */
const FILES = import.meta.glob<string>('/content/blog/*.md', { query: '?raw', import: 'default' });

export interface PostSummary {
  slug: string;
  title: string;
  /** ISO date, e.g. 2026-08-14. */
  date: string;
  /** "14 August 2026". */
  dateLabel: string;
  excerpt: string;
  author: string;
  minutes: number;
}

export interface Post extends PostSummary {
  html: string;
  headings: Heading[];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const pathFor = (slug: string) => `/content/blog/${slug}.md`;
const slugOf = (path: string) => path.slice('/content/blog/'.length, -'.md'.length);

function summarise(slug: string, source: string): PostSummary & { body: string } {
  const { data, body } = parseFrontMatter(source);
  const date = data.date ?? '';
  return {
    slug,
    title: data.title || slug.replace(/-/g, ' '),
    date,
    dateLabel: formatDateGB(date),
    excerpt: data.excerpt ?? '',
    author: data.author || 'The Fancy team',
    minutes: readingMinutes(body),
    body,
  };
}

/** Every post, newest first. */
export async function loadPostSummaries(): Promise<PostSummary[]> {
  const posts = await Promise.all(
    Object.entries(FILES).map(async ([path, load]) => {
      const { body: _body, ...summary } = summarise(slugOf(path), await load());
      return summary;
    }),
  );
  return posts.sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title));
}

/** One post rendered to safe HTML, or null when there is no such slug. */
export async function loadPost(slug: string): Promise<Post | null> {
  const load = SLUG.test(slug) ? FILES[pathFor(slug)] : undefined;
  if (!load) return null;
  const { body, ...summary } = summarise(slug, await load());
  return { ...summary, ...renderMarkdown(body) };
}
