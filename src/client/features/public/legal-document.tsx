import { useQuery } from '@tanstack/react-query';
import { ChevronDown, FileWarning, RotateCcw } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { formatDateGB, interceptInternalLinks, parseFrontMatter, readingMinutes, renderMarkdown } from '../../lib/markdown';
import { PublicLayout, StateMessage, PageHeader } from './public-layout';
import { usePageTitle } from '../../lib/use-page-title';
import { queryClient } from '../../lib/query';

/** The legal documents, loaded on demand (each becomes its own small chunk). */
const DOCUMENTS = import.meta.glob<string>('/content/legal/*.md', { query: '?raw', import: 'default' });

export type LegalDocumentName = 'terms' | 'privacy';

async function loadDocument(name: LegalDocumentName) {
  const load = DOCUMENTS[`/content/legal/${name}.md`];
  if (!load) throw new Error(`Missing legal document ${name}`);
  const { data, body } = parseFrontMatter(await load());
  return { title: data.title ?? '', updated: data.updated ?? '', minutes: readingMinutes(body), ...renderMarkdown(body) };
}

const legalQuery = (name: LegalDocumentName) => ({
  queryKey: ['legal', name],
  queryFn: () => loadDocument(name),
  staleTime: Number.POSITIVE_INFINITY,
});

/**
 * Loads a document into the tab's query cache. The route awaits it with the page's code, so the
 * page renders with its text at once (over its prerendered HTML, decision 015) instead of a spinner.
 */
export function preloadLegalDocument(name: LegalDocumentName): Promise<unknown> {
  return queryClient.ensureQueryData(legalQuery(name)).catch(() => undefined);
}

const OTHER: Record<LegalDocumentName, { to: string; label: string; topic: string }> = {
  terms: { to: '/privacy', label: 'Privacy Policy', topic: 'Something else' },
  privacy: { to: '/terms', label: 'Terms & Conditions', topic: 'Privacy & my data' },
};

/** A legal document page: title, last-updated date, contents and the rendered Markdown. */
export function LegalDocument({ name, fallbackTitle }: { name: LegalDocumentName; fallbackTitle: string }) {
  const doc = useQuery(legalQuery(name));
  usePageTitle(doc.data?.title || fallbackTitle);
  const navigate = useNavigate();
  const articleRef = useRef<HTMLDivElement>(null);
  const html = doc.data?.html;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-attach when the rendered HTML changes
  useEffect(() => interceptInternalLinks(articleRef.current, navigate), [navigate, html]);
  const toc = useMemo(() => (doc.data?.headings ?? []).filter((h) => h.depth === 2), [doc.data]);

  if (doc.isPending) {
    return (
      <PublicLayout>
        <div className="flex justify-center py-24">
          <Spinner label={`Loading ${fallbackTitle}`} />
        </div>
      </PublicLayout>
    );
  }
  if (doc.isError) {
    return (
      <PublicLayout>
        <StateMessage
          icon={<FileWarning aria-hidden />}
          title={`We couldn't load the ${fallbackTitle}`}
          action={
            <Button onClick={() => void doc.refetch()}>
              <RotateCcw aria-hidden /> Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StateMessage>
      </PublicLayout>
    );
  }

  const { title, updated, minutes } = doc.data;
  const contents = (
    <ol className="grid gap-0.5 text-sm">
      {toc.map((h) => (
        <li key={h.id}>
          <a
            href={`#${h.id}`}
            className="block rounded-lg px-2.5 py-1.5 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:text-foreground"
          >
            {h.text}
          </a>
        </li>
      ))}
    </ol>
  );

  return (
    <PublicLayout>
      <PageHeader eyebrow="Legal" title={title}>
        <p className="mt-3 text-muted-foreground">
          Last updated <time dateTime={updated}>{formatDateGB(updated)}</time> · {minutes} min read
        </p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-5 md:py-12 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-12">
        {toc.length > 0 && (
          <>
            <details className="group rounded-2xl border border-border bg-card p-1 lg:hidden print:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between rounded-xl px-3 py-2.5 font-semibold [&::-webkit-details-marker]:hidden">
                Contents
                <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden />
              </summary>
              <nav aria-label="Contents" className="px-1 pb-2">
                {contents}
              </nav>
            </details>
            <aside className="hidden lg:block print:hidden">
              <nav aria-labelledby="toc-heading" className="sticky top-6 max-h-[calc(100dvh-3rem)] overflow-y-auto pr-2">
                <h2 id="toc-heading" className="px-2.5 pb-2 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
                  On this page
                </h2>
                {contents}
              </nav>
            </aside>
          </>
        )}
        <div className="min-w-0">
          <Card className="px-5 py-7 sm:px-10 sm:py-10 print:border-0 print:p-0 print:shadow-none">
            {/* Our own Markdown, rendered with raw HTML escaped and only relative or https links (lib/markdown). */}
            <div
              ref={articleRef}
              className="prose-fancy max-w-none [&_h2]:scroll-mt-6 [&_h3]:scroll-mt-6 [&>*:first-child]:mt-0"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by renderMarkdown (no raw HTML, safe links only)
              dangerouslySetInnerHTML={{ __html: doc.data.html }}
            />
          </Card>
          <div className="mt-6 flex flex-col gap-3 rounded-2xl bg-accent/60 p-5 sm:flex-row sm:items-center sm:justify-between print:hidden">
            <p className="text-accent-foreground">
              Questions about this document? <span className="whitespace-nowrap">We're happy to help.</span>
            </p>
            <div className="flex shrink-0 flex-wrap gap-2">
              <Button asChild variant="outline" size="sm">
                <Link to={OTHER[name].to}>Read our {OTHER[name].label}</Link>
              </Button>
              <Button asChild size="sm">
                <Link to={`/contact-support?topic=${encodeURIComponent(OTHER[name].topic)}`}>Contact Support</Link>
              </Button>
            </div>
          </div>
        </div>
      </div>
    </PublicLayout>
  );
}
