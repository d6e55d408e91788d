import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hashPassword, verifyPassword } from 'better-auth/crypto';

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number, options: object) => Promise<Buffer>;

/**
 * How passwords are hashed. `standard` is better-auth's own scrypt (N = 16384, r = 16, p = 1: about
 * 0.1 s of CPU a hash here), the only one outside NODE_ENV=test. `light` is the same scrypt at a
 * 64th of the cost (N = 1024, r = 4) for the test suites, where every helper-made member costs a
 * hash and a check and a password's strength is not what is tested (decision 039); a hash it
 * made says so (`light$…`), and it checks standard hashes too, so a database seeded either way
 * signs in.
 */
export type PasswordHashing = 'standard' | 'light';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(data: { hash: string; password: string }): Promise<boolean>;
}

const LIGHT = { N: 1024, r: 4, p: 1, maxmem: 16 * 1024 * 1024 };
const LIGHT_PREFIX = 'light$';

const light: PasswordHasher = {
  async hash(password) {
    const salt = randomBytes(16).toString('hex');
    const key = await scryptAsync(password.normalize('NFKC'), salt, 64, LIGHT);
    return `${LIGHT_PREFIX}${salt}:${key.toString('hex')}`;
  },
  async verify({ hash, password }) {
    if (!hash.startsWith(LIGHT_PREFIX)) return verifyPassword({ hash, password });
    const [salt, keyHex] = hash.slice(LIGHT_PREFIX.length).split(':');
    if (!salt || !keyHex) return false;
    const key = await scryptAsync(password.normalize('NFKC'), salt, 64, LIGHT);
    const expected = Buffer.from(keyHex, 'hex');
    return expected.length === key.length && timingSafeEqual(expected, key);
  },
};

const standard: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

export function passwordHasher(mode: PasswordHashing): PasswordHasher {
  return mode === 'light' ? light : standard;
}
