import { describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES } from '../shared/prerendered';
import { renderPage } from './prerender';

describe('prerendered signed-out pages', () => {
  it('renders each page’s own content, as a visitor who is not signed in sees it', () => {
    const landing = renderPage('/');
    expect(landing).toContain('what you love');
    expect(landing).toContain('href="/auth/register"');
    const login = renderPage('/auth/login');
    expect(login).toContain('Welcome back');
    expect(login).toMatch(/<form[^>]*>/);
    expect(login).toContain('type="email"');
    const register = renderPage('/auth/register');
    expect(register).toContain('Create your account');
    expect(register).toContain('Full name');
    for (const html of [landing, login, register]) {
      // No loading spinner in place of the page, and nothing of a member.
      expect(html).not.toContain('role="status"');
      expect(html).not.toMatch(/log out/i);
    }
  });

  it('covers the three entry pages with distinct files', () => {
    expect(Object.keys(PRERENDERED_PAGES)).toEqual(['/', '/auth/login', '/auth/register']);
    expect(new Set(Object.values(PRERENDERED_PAGES).map((p) => p.file)).size).toBe(3);
  });
});
