import { BookHeart, Heart, House, MessageCircle, Settings, UserRound, UsersRound } from 'lucide-react';

export type BadgeKey = 'unreadMessages' | 'newMatches' | 'mixerMentions';

/** Main navigation, in the spec's order (§2 "Navigation"). */
export const NAV_ITEMS = [
  { to: '/home', label: 'Home', short: 'Home', icon: House },
  { to: '/modern-love-letters', label: 'Blog: Modern Loveletters', short: 'Blog', icon: BookHeart },
  { to: '/mixers', label: 'Mixers', short: 'Mixers', icon: UsersRound, badge: 'mixerMentions' as BadgeKey },
  { to: '/matches', label: 'Matches', short: 'Matches', icon: Heart, badge: 'newMatches' as BadgeKey },
  { to: '/messages', label: 'Messages', short: 'Messages', icon: MessageCircle, badge: 'unreadMessages' as BadgeKey },
  { to: '/profile', label: 'Profile', short: 'Profile', icon: UserRound },
  { to: '/settings', label: 'Settings', short: 'Settings', icon: Settings },
] as const;

/** The mobile bottom bar: Home, Mixers, Matches, Messages and the blog (spec §2). */
export const MOBILE_BAR = ['/home', '/mixers', '/matches', '/messages', '/modern-love-letters'] as const;

/** An entry is active when the path equals it or starts with it (spec §2). */
export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(to);
}

/** Badge text: hidden at 0, "99+" above 99 (spec §2, §9). */
export function badgeLabel(count: number | undefined | null): string | null {
  if (!count || count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
