import { isWeakPassword } from '../../shared/password-strength';

/** True when the password is among those attackers try first (docs/decisions/006: a strength estimate, not a short list). */
export function isCommonPassword(password: string, related: string[] = []): Promise<boolean> {
  return isWeakPassword(password, related);
}
