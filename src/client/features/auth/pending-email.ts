/**
 * The address a member has just signed up with, kept on this device until they confirm it: the
 * confirmation link opens the login page (docs/decisions/006), which fills it in for them.
 * Storage can be refused (private windows, full): then the member types it, as before.
 */
const KEY = 'fancy-pending-email';

export function rememberPendingEmail(email: string) {
  try {
    localStorage.setItem(KEY, email);
  } catch {
    // Not kept: nothing is lost but the convenience.
  }
}

export function pendingEmail(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetPendingEmail() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept to forget.
  }
}
