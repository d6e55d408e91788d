import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDateGB, parseFrontMatter, readingMinutes, renderMarkdown, safeHref, slugify } from './markdown';

describe('parseFrontMatter', () => {
  it('reads bare, double-quoted and single-quoted values and returns the body', () => {
    const { data, body } = parseFrontMatter(
      [
        '---',
        'title: "Friends first: dating when you\\"re slow"',
        'slug: friends-first',
        "excerpt: 'It''s fine'",
        'date: 2026-11-13',
        '# a comment',
        '---',
        '',
        'Hello **there**.',
      ].join('\n'),
    );
    expect(data).toEqual({
      title: 'Friends first: dating when you"re slow',
      slug: 'friends-first',
      excerpt: "It's fine",
      date: '2026-11-13',
    });
    expect(body).toBe('\nHello **there**.');
  });

  it('copes with Windows line endings and with no front matter at all', () => {
    expect(parseFrontMatter('---\r\ntitle: Hi\r\n---\r\nBody').data).toEqual({ title: 'Hi' });
    expect(parseFrontMatter('# Just markdown')).toEqual({ data: {}, body: '# Just markdown' });
  });

  it('parses every shipped blog post and legal document', () => {
    for (const dir of ['content/blog', 'content/legal']) {
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
        const { data, body } = parseFrontMatter(readFileSync(path.join(dir, file), 'utf8'));
        expect(data.title, file).toBeTruthy();
        expect(body.trim().length, file).toBeGreaterThan(500);
        if (dir === 'content/blog') {
          expect(data.slug, file).toBe(file.replace(/\.md$/, ''));
          expect(data.date, file).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(data.excerpt, file).toBeTruthy();
        }
      }
    }
  });
});

describe('renderMarkdown', () => {
  it('renders ordinary Markdown', () => {
    const { html } = renderMarkdown('## Hello\n\nSome **bold** and a [link](/mixers).\n\n- one\n- two');
    expect(html).toContain('<h2 id="hello">Hello</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="/mixers">link</a>');
    expect(html).toContain('<li>one</li>');
  });

  it('escapes raw HTML, block and inline, instead of interpreting it', () => {
    const { html } = renderMarkdown('<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> there <b>bold</b>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('drops unsafe links but keeps their text', () => {
    const cases = [
      '[click](javascript:alert(1))',
      '[click](JaVaScRiPt:alert(1))',
      '[click](java\tscript:alert(1))',
      '[click](data:text/html;base64,PHNjcmlwdD4=)',
      '[click](vbscript:msgbox)',
      '[click](http://example.com)',
      '[click](//evil.example/path)',
      '<javascript:alert(1)>',
    ];
    for (const src of cases) {
      const { html } = renderMarkdown(src);
      expect(html, src).not.toMatch(/href=/i);
      expect(html.toLowerCase(), src).not.toContain('href="javascript');
    }
    expect(renderMarkdown('[click](javascript:alert(1))').html).toContain('click');
  });

  it('keeps relative and https links, marking external ones', () => {
    expect(renderMarkdown('[a](/privacy)').html).toContain('<a href="/privacy">a</a>');
    expect(renderMarkdown('[a](#section-2)').html).toContain('<a href="#section-2">a</a>');
    expect(renderMarkdown('[a](https://www.gov.uk/report-to-police "Report")').html).toContain(
      '<a href="https://www.gov.uk/report-to-police" title="Report" rel="noopener noreferrer">a</a>',
    );
  });

  it('only allows images from relative or https sources, and escapes attributes', () => {
    expect(renderMarkdown('![a "cat"](/img/cat.webp)').html).toContain('<img src="/img/cat.webp" alt="a &quot;cat&quot;"');
    const bad = renderMarkdown('![pic](javascript:alert(1))').html;
    expect(bad).not.toContain('<img');
    expect(bad).toContain('pic');
  });

  it('collects level-2 and level-3 headings with unique ids', () => {
    const { headings, html } = renderMarkdown('## 1. Who we are\n\ntext\n\n### Details\n\n## Details\n\n#### Deep');
    expect(headings).toEqual([
      { depth: 2, text: '1. Who we are', id: '1-who-we-are' },
      { depth: 3, text: 'Details', id: 'details' },
      { depth: 2, text: 'Details', id: 'details-2' },
    ]);
    expect(html).toContain('<h2 id="details-2">Details</h2>');
  });
});

describe('helpers', () => {
  it('safeHref accepts relative and https, refuses the rest', () => {
    expect(safeHref('/contact-support')).toBe('/contact-support');
    expect(safeHref('settings')).toBe('settings');
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref(' javascript:alert(1)')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBeNull();
    expect(safeHref('')).toBeNull();
  });

  it('reading time is words ÷ 200 rounded up, at least 1', () => {
    expect(readingMinutes('word '.repeat(200))).toBe(1);
    expect(readingMinutes('word '.repeat(201))).toBe(2);
    expect(readingMinutes('## Title\n\n- **a** b')).toBe(1);
    expect(readingMinutes('')).toBe(1);
  });

  it('formats dates the British way', () => {
    expect(formatDateGB('2026-08-14')).toBe('14 August 2026');
    expect(formatDateGB('2026-11-01')).toBe('1 November 2026');
    expect(formatDateGB('soon')).toBe('soon');
  });

  it('slugify makes stable ids', () => {
    expect(slugify('14. Governing law & where you can bring claims')).toBe('14-governing-law-where-you-can-bring-claims');
    expect(slugify('Café culture')).toBe('cafe-culture');
  });
});
