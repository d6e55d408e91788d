import { describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES } from '../shared/prerendered';
import { renderPage } from './prerender';

describe('prerendered signed-out pages', () => {
  it('renders each page’s own content, as a visitor who is not signed in sees it', async () => {
    const landing = await renderPage('/');
    expect(landing).toContain('what you love');
    expect(landing).toContain('href="/auth/register"');
    const login = await renderPage('/auth/login');
    expect(login).toContain('Welcome back');
    expect(login).toMatch(/<form[^>]*>/);
    expect(login).toContain('type="email"');
    const register = await renderPage('/auth/register');
    expect(register).toContain('Create your account');
    expect(register).toContain('Full name');
    const terms = await renderPage('/terms');
    expect(terms).toContain('Terms &amp; Conditions');
    expect(terms).toContain('href="/privacy"');
    const privacy = await renderPage('/privacy');
    expect(privacy).toContain('Privacy Policy');
    // The documents' own text, not their loading state.
    expect(terms.length).toBeGreaterThan(5000);
    expect(privacy.length).toBeGreaterThan(5000);
    for (const html of [landing, login, register, terms, privacy]) {
      // No loading spinner in place of the page, and nothing of a member.
      expect(html).not.toContain('role="status"');
      expect(html).not.toMatch(/log out/i);
    }
  });

  it('covers the entry and legal pages with distinct files', () => {
    expect(Object.keys(PRERENDERED_PAGES)).toEqual(['/', '/auth/login', '/auth/register', '/terms', '/privacy']);
    expect(new Set(Object.values(PRERENDERED_PAGES).map((p) => p.file)).size).toBe(5);
  });
});
