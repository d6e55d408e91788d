import { useNavigate } from 'react-router';
import { useToast } from '../../components/ui/toast';
import { useRealtimeEvents } from '../../lib/realtime';

/**
 * Shows the server's `notice` events (a waitlist seat, an invitation, a mixer that ended…) as
 * toasts; a notice that leads somewhere gets a button that goes there.
 */
export function NoticeToaster() {
  const toast = useToast();
  const navigate = useNavigate();
  useRealtimeEvents((event) => {
    if (event.type !== 'notice') return;
    const { link } = event;
    toast({
      title: event.title,
      description: event.description,
      duration: link ? 12_000 : 8000,
      action: link ? { label: link.label, onSelect: () => navigate(link.href) } : undefined,
    });
  });
  return null;
}
