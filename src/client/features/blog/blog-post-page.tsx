import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, BookHeart, FileWarning, RotateCcw, UsersRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { interceptInternalLinks } from '../../lib/markdown';
import { PostMeta, postsQuery } from './blog-list-page';
import { loadPost } from './posts';
import { usePageTitle } from '../../lib/use-page-title';

function BackLink() {
  return (
    <Link
      to="/modern-love-letters"
      className="inline-flex items-center gap-1.5 rounded-lg text-sm font-semibold text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden /> All letters
    </Link>
  );
}

function Centered({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">{children}</div>;
}

/** One Modern Loveletters post, rendered from its Markdown file. */
export default function BlogPostPage() {
  const { slug = '' } = useParams();
  const post = useQuery({ queryKey: ['blog', 'post', slug], queryFn: () => loadPost(slug), staleTime: Number.POSITIVE_INFINITY });
  const others = useQuery({ ...postsQuery, enabled: Boolean(post.data) });
  usePageTitle(post.data ? post.data.title : post.data === null ? 'Letter not found' : 'Modern Loveletters');
  const navigate = useNavigate();
  const articleRef = useRef<HTMLDivElement>(null);
  const html = post.data?.html;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-attach when the rendered HTML changes
  useEffect(() => interceptInternalLinks(articleRef.current, navigate), [navigate, html]);

  if (post.isPending) {
    return (
      <Centered>
        <Spinner label="Loading the letter" />
      </Centered>
    );
  }
  if (post.isError) {
    return (
      <Centered>
        <FileWarning className="size-9 text-muted-foreground" aria-hidden />
        <h1 className="mt-4 font-display text-2xl font-extrabold">We couldn't load this letter</h1>
        <p className="mt-2 text-muted-foreground">Check your connection and try again.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button onClick={() => void post.refetch()}>
            <RotateCcw aria-hidden /> Try again
          </Button>
          <Button asChild variant="outline">
            <Link to="/modern-love-letters">Back to Modern Loveletters</Link>
          </Button>
        </div>
      </Centered>
    );
  }
  if (!post.data) {
    return (
      <Centered>
        <span className="flex size-14 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
          <BookHeart className="size-7" aria-hidden />
        </span>
        <h1 className="mt-5 font-display text-2xl font-extrabold">We couldn't find that letter</h1>
        <p className="mt-2 text-muted-foreground">
          It may have moved, or the link may be mistyped. There's plenty more to read on the blog.
        </p>
        <Button asChild className="mt-6">
          <Link to="/modern-love-letters">Back to Modern Loveletters</Link>
        </Button>
      </Centered>
    );
  }

  const p = post.data;
  const more = (others.data ?? []).filter((o) => o.slug !== p.slug).slice(0, 2);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:px-6 md:py-10">
      <BackLink />
      <article className="mt-5">
        <header>
          <p className="text-sm font-semibold uppercase tracking-widest text-primary">Modern Loveletters</p>
          <h1 className="mt-2 font-display text-3xl font-extrabold leading-tight tracking-tight sm:text-4xl md:text-[2.6rem]">{p.title}</h1>
          {p.excerpt && <p className="mt-4 text-lg text-muted-foreground">{p.excerpt}</p>}
          <div className="mt-5 flex flex-wrap items-center gap-3 border-y border-border py-3">
            <span
              className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground"
              aria-hidden
            >
              F
            </span>
            <div>
              <p className="text-sm font-semibold">{p.author}</p>
              <PostMeta post={p} />
            </div>
          </div>
        </header>
        {/* Our own Markdown, rendered with raw HTML escaped and only relative or https links (lib/markdown). */}
        <div
          ref={articleRef}
          className="prose-fancy mt-8 [&>*:first-child]:mt-0"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by renderMarkdown (no raw HTML, safe links only)
          dangerouslySetInnerHTML={{ __html: p.html }}
        />
      </article>

      <Card className="mt-10 flex flex-col gap-4 border-primary/25 bg-accent/60 p-6 sm:flex-row sm:items-center">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary text-primary-foreground">
          <UsersRound className="size-5" aria-hidden />
        </span>
        <div className="flex-1">
          <h2 className="font-bold">Ready to put it into practice?</h2>
          <p className="text-sm text-muted-foreground">Find a mixer about something you love and say hello.</p>
        </div>
        <Button asChild>
          <Link to="/mixers">Browse mixers</Link>
        </Button>
      </Card>

      {more.length > 0 && (
        <section aria-labelledby="more-letters" className="mt-12">
          <h2 id="more-letters" className="font-display text-2xl font-extrabold">
            More letters
          </h2>
          <ul className="mt-5 grid gap-4 sm:grid-cols-2">
            {more.map((o) => (
              <li key={o.slug}>
                <Card className="relative h-full p-5 transition-shadow has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-background hover:shadow-md">
                  <PostMeta post={o} />
                  <h3 className="mt-2 font-bold leading-snug">
                    <Link to={`/modern-love-letters/${o.slug}`} className="outline-none after:absolute after:inset-0 hover:text-primary">
                      {o.title}
                    </Link>
                  </h3>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="mt-10">
        <BackLink />
      </div>
    </div>
  );
}
