import { Tooltip } from 'radix-ui';

/**
 * One sidebar entry: the link as it is while the sidebar is expanded; collapsed (icons only),
 * the link with its name in a tooltip to the right. Used by the main navigation and the admin one.
 */
export function SidebarItem({ expanded, label, children }: { expanded: boolean; label: string; children: React.ReactElement }) {
  return (
    <li>
      {expanded ? (
        children
      ) : (
        <Tooltip.Root>
          <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content
              side="right"
              sideOffset={10}
              className="z-50 rounded-lg bg-foreground px-2.5 py-1.5 text-xs font-medium text-background shadow"
            >
              {label}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      )}
    </li>
  );
}
