import { BarChart3, Contact, Flag, LayoutDashboard, Lightbulb, Megaphone, ShieldCheck, UsersRound, Wand2 } from 'lucide-react';

/** The admin area's pages, in sidebar order. */
export const ADMIN_LINKS = [
  { to: '/admin', label: 'Overview', icon: LayoutDashboard, exact: true },
  { to: '/admin/reports', label: 'Reports', icon: Flag },
  { to: '/admin/members', label: 'Members', icon: Contact },
  { to: '/admin/verification', label: 'Verification', icon: ShieldCheck },
  { to: '/admin/interest-suggestions', label: 'Interest suggestions', icon: Lightbulb },
  { to: '/admin/mixers', label: 'Mixers', icon: UsersRound },
  { to: '/admin/formation', label: 'Formation', icon: Wand2 },
  { to: '/admin/campaigns', label: 'Campaigns', icon: Megaphone },
  { to: '/admin/metrics', label: 'Metrics', icon: BarChart3 },
] as const;

export const isAdminLinkActive = (pathname: string, link: { to: string; exact?: boolean }) =>
  'exact' in link && link.exact
    ? pathname === link.to || pathname === `${link.to}/`
    : pathname === link.to || pathname.startsWith(`${link.to}/`);
