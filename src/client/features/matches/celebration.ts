import { useNavigate } from 'react-router';
import { useToast } from '../../components/ui/toast';

/**
 * "It's a match!": the celebration toast with a link to the new conversation, the same whether
 * my own fancy made the match or the other member's did (the notifier).
 */
export function useMatchCelebration() {
  const toast = useToast();
  const navigate = useNavigate();
  return (matchId: string, firstName: string) =>
    toast({
      variant: 'celebration',
      title: "It's a match!",
      description: `You and ${firstName} fancy each other. Your private conversation is open.`,
      duration: 10_000,
      action: { label: `Say hello to ${firstName}`, href: `/messages/${matchId}`, onSelect: () => navigate(`/messages/${matchId}`) },
    });
}
