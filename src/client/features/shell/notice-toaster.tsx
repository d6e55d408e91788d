import { useToast } from '../../components/ui/toast';
import { useRealtimeEvents } from '../../lib/realtime';

/** Shows the server's `notice` events (a waitlist seat, a warning, a cancelled mixer) as toasts. */
export function NoticeToaster() {
  const toast = useToast();
  useRealtimeEvents((event) => {
    if (event.type === 'notice') toast({ title: event.title, description: event.description, duration: 8000 });
  });
  return null;
}
