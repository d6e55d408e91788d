const announced = new Set<string>();

/**
 * True the first time a key is claimed in this tab. Two places can celebrate the same event
 * (the mixer card that completed a match, and the app-wide match notifier): the first wins.
 */
export function claimAnnouncement(key: string): boolean {
  if (announced.has(key)) return false;
  announced.add(key);
  return true;
}
