import { Outlet, useParams } from 'react-router';
import { preloadQueries } from '../../lib/query';
import { conversationsQuery } from './api';
import { cn } from '../../lib/cn';
import { useAuth } from '../../lib/auth';
import { ConversationList } from './components/conversation-list';
import { useLiveInbox, useNow } from './hooks';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * /messages and /messages/{id}: the conversation list beside the open thread on a desktop
 * (from 1024 px); narrower, the list or the thread (full-screen on a phone, beside the sidebar
 * on a tablet): three columns at 768 px left the thread 192 px and its bubbles a word wide.
 */
/** The conversation list, loaded with the page (decision 018). */
export const preload = () =>
  preloadQueries((client) => [client.ensureInfiniteQueryData({ ...conversationsQuery, revalidateIfStale: true })]);

export default function MessagesLayout() {
  const { id } = useParams();
  const auth = useAuth();
  const now = useNow();
  useLiveInbox();
  usePageTitle(id ? null : 'Messages');
  // With a conversation open, its name is the page's heading; the list beside it is a section.
  const ListHeading = id ? 'h2' : 'h1';
  return (
    <div className="md:flex md:h-dvh md:overflow-hidden">
      <section
        aria-labelledby="messages-heading"
        className={cn(
          'lg:flex lg:w-80 lg:flex-none lg:shrink-0 lg:flex-col lg:border-r lg:border-border xl:w-96',
          id ? 'hidden' : 'md:flex md:min-w-0 md:flex-1 md:flex-col',
        )}
      >
        <header className="px-5 pb-2 pt-6 md:pt-8">
          <ListHeading id="messages-heading" className="font-display text-3xl font-extrabold">
            Messages
          </ListHeading>
          <p className="mt-1 text-sm text-muted-foreground">Private chats with your matches.</p>
        </header>
        <div className="md:min-h-0 md:flex-1 md:overflow-y-auto md:overflow-x-hidden">
          <ConversationList activeId={id} myId={auth.user?.id} now={now} />
        </div>
      </section>
      <div className={cn('lg:flex lg:min-w-0 lg:flex-1', id ? 'md:flex md:min-w-0 md:flex-1' : 'hidden')}>
        <Outlet />
      </div>
    </div>
  );
}
