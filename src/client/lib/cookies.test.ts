import { afterEach, describe, expect, it } from 'vitest';
import { cookieValue, setServerRenderCookies } from './cookies';

describe('cookieValue', () => {
  afterEach(() => setServerRenderCookies(undefined));

  it('reads one cookie from the request a member page is rendered for, by its whole name', () => {
    setServerRenderCookies('sidebar_state=false; fancy-availability-prompt-dismissed=1; x_sidebar_state=true');
    expect(cookieValue('sidebar_state')).toBe('false');
    expect(cookieValue('fancy-availability-prompt-dismissed')).toBe('1');
    expect(cookieValue('state')).toBeUndefined();
  });

  it('is undefined when there are no cookies', () => {
    expect(cookieValue('sidebar_state')).toBeUndefined();
  });
});
