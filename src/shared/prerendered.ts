/**
 * The signed-out pages whose HTML is rendered at build time (decision 015): path → the file
 * under `dist/client/prerendered/` the server sends for it, and the page's title.
 */
export const PRERENDERED_PAGES = {
  '/': { file: 'landing.html', title: 'Fancy' },
  '/auth/login': { file: 'login.html', title: 'Log in · Fancy' },
  '/auth/register': { file: 'register.html', title: 'Create your account · Fancy' },
  '/terms': { file: 'terms.html', title: 'Terms & Conditions · Fancy' },
  '/privacy': { file: 'privacy.html', title: 'Privacy Policy · Fancy' },
} as const;

export type PrerenderedPath = keyof typeof PRERENDERED_PAGES;
