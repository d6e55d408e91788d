import { Download, FileText, LifeBuoy, LogOut, Settings, Share, Shield, UserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useInstallOffer } from '../../lib/pwa';
import { displayName, useAuth } from '../../lib/auth';
import { Avatar } from '../../components/ui/avatar';
import { MenuItem } from '../../components/ui/menu';

const ITEMS = [
  { to: '/profile', label: 'Profile', icon: UserRound },
  { to: '/settings', label: 'Settings', icon: Settings },
  { to: '/contact-support', label: 'Contact Support', icon: LifeBuoy },
  { to: '/terms', label: 'Terms & Conditions', icon: FileText },
  { to: '/privacy', label: 'Privacy Policy', icon: Shield },
] as const;

/** The account menu (spec §2): avatar + name, the five links and Log out; Sign In when signed out. */
export function AccountMenu({ compact = false, side = 'top' }: { compact?: boolean; side?: 'top' | 'bottom' }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const installOffer = useInstallOffer();
  if (!auth.user) {
    return (
      <Button asChild size="sm">
        <Link to="/auth/login">Sign In</Link>
      </Button>
    );
  }
  const name = displayName(auth.profile, auth.user);
  const logout = async () => {
    try {
      await auth.logout();
    } finally {
      navigate('/auth/login', { replace: true });
    }
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className={cn(
          'flex min-w-0 items-center gap-3 rounded-xl p-1.5 text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
          !compact && 'w-full',
        )}
        aria-label={compact ? `Account menu for ${name}` : undefined}
      >
        <Avatar name={name} src={auth.profile?.avatarUrl} />
        {!compact && (
          <span className="min-w-0 flex-1">
            <span className="sr-only">Account menu for </span>
            <span className="block truncate text-sm font-semibold">{name}</span>
            <span className="block truncate text-xs text-muted-foreground">{auth.user.email}</span>
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side={side}
          align="start"
          sideOffset={8}
          className="z-50 min-w-56 rounded-2xl border border-border bg-card p-1.5 text-card-foreground shadow-xl"
        >
          <DropdownMenu.Label className="px-2.5 py-2 text-xs text-muted-foreground">
            Signed in as <span className="font-medium text-foreground">{name}</span>
          </DropdownMenu.Label>
          {ITEMS.map(({ to, label, icon: Icon }) => (
            <DropdownMenu.Item key={to} asChild>
              <Link
                to={to}
                className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-muted"
              >
                <Icon className="size-4 text-muted-foreground" aria-hidden />
                {label}
              </Link>
            </DropdownMenu.Item>
          ))}
          {installOffer.canInstall && (
            <MenuItem icon={Download} onSelect={() => void installOffer.install()}>
              Install Fancy
            </MenuItem>
          )}
          {installOffer.iosHint && (
            <p className="flex max-w-64 items-start gap-2.5 px-2.5 py-2 text-xs text-muted-foreground">
              <Share className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                Install Fancy: tap <span className="font-medium text-foreground">Share</span>, then{' '}
                <span className="font-medium text-foreground">Add to Home Screen</span>.
              </span>
            </p>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <MenuItem icon={LogOut} destructive onSelect={() => void logout()}>
            Log out
          </MenuItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
