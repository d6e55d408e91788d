/** The admin feature's public surface: the shell's admin links (decision 025). */
export { AdminNav } from './admin-nav';
