import { useQuery } from '@tanstack/react-query';
import { ArrowRight, BookHeart, Clock, FileWarning, RotateCcw } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { loadPostSummaries, type PostSummary } from './posts';
import { usePageTitle } from '../../lib/use-page-title';

export const postsQuery = { queryKey: ['blog', 'posts'], queryFn: loadPostSummaries, staleTime: Number.POSITIVE_INFINITY } as const;

export function PostMeta({ post, className }: { post: PostSummary; className?: string }) {
  return (
    <p className={cn('flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground', className)}>
      <time dateTime={post.date}>{post.dateLabel}</time>
      <span aria-hidden>·</span>
      <span className="inline-flex items-center gap-1">
        <Clock className="size-3.5" aria-hidden />
        {post.minutes} min read
      </span>
    </p>
  );
}

function PostCard({ post, featured = false }: { post: PostSummary; featured?: boolean }) {
  return (
    <Card
      className={cn(
        'group relative flex h-full flex-col p-6 transition-shadow has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-background hover:shadow-md',
        featured && 'border-primary/25 bg-gradient-to-br from-accent/70 via-card to-card p-7 sm:p-9',
      )}
    >
      {featured && (
        <p className="mb-3 w-fit rounded-full bg-primary px-3 py-1 text-xs font-bold uppercase tracking-wider text-primary-foreground">
          Latest letter
        </p>
      )}
      <PostMeta post={post} />
      <h2 className={cn('mt-2 font-display font-extrabold leading-snug', featured ? 'text-2xl sm:text-3xl' : 'text-xl')}>
        <Link
          to={`/modern-love-letters/${post.slug}`}
          className="outline-none after:absolute after:inset-0 after:rounded-2xl group-hover:text-primary"
        >
          {post.title}
        </Link>
      </h2>
      <p className={cn('mt-3 text-muted-foreground', featured && 'max-w-3xl text-lg')}>{post.excerpt}</p>
      <p aria-hidden className="mt-auto inline-flex items-center gap-1.5 pt-5 text-sm font-semibold text-primary">
        Read the letter <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
      </p>
    </Card>
  );
}

/** Modern Loveletters: the blog's list of posts, newest first. */
export default function BlogListPage() {
  usePageTitle('Modern Loveletters');
  const posts = useQuery(postsQuery);

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 md:py-10">
      <header className="flex items-start gap-4">
        <span className="hidden size-12 shrink-0 items-center justify-center rounded-2xl bg-accent text-accent-foreground sm:flex">
          <BookHeart className="size-6" aria-hidden />
        </span>
        <div>
          <h1 className="font-display text-3xl font-extrabold sm:text-4xl">Modern Loveletters</h1>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Honest advice, conversation ideas and stories about meeting people differently, from the Fancy team.
          </p>
        </div>
      </header>

      <div className="mt-8">
        {posts.isPending ? (
          <div className="flex justify-center py-20">
            <Spinner label="Loading letters" />
          </div>
        ) : posts.isError ? (
          <Card className="flex flex-col items-center p-10 text-center">
            <FileWarning className="size-8 text-muted-foreground" aria-hidden />
            <h2 className="mt-3 text-lg font-bold">We couldn't load the letters</h2>
            <p className="mt-1 text-muted-foreground">Check your connection and try again.</p>
            <Button className="mt-5" onClick={() => void posts.refetch()}>
              <RotateCcw aria-hidden /> Try again
            </Button>
          </Card>
        ) : posts.data.length === 0 ? (
          <Card className="flex flex-col items-center p-10 text-center">
            <BookHeart className="size-8 text-muted-foreground" aria-hidden />
            <h2 className="mt-3 text-lg font-bold">No letters yet</h2>
            <p className="mt-1 text-muted-foreground">Our first posts are on their way. In the meantime, why not join a mixer?</p>
            <Button asChild className="mt-5">
              <Link to="/mixers">Browse mixers</Link>
            </Button>
          </Card>
        ) : (
          <ul aria-label="Letters" className="grid gap-5 md:grid-cols-2">
            {posts.data.map((post, i) => (
              <li key={post.slug} className={cn(i === 0 && 'md:col-span-2')}>
                <PostCard post={post} featured={i === 0} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
