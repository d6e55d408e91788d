import { afterEach, describe, expect, it, vi } from 'vitest';
import { cookieValue, setPageCookie, setServerRenderCookies } from './cookies';

describe('cookieValue', () => {
  afterEach(() => {
    setServerRenderCookies(undefined);
    vi.unstubAllGlobals();
  });

  it('reads one cookie from the request a member page is rendered for, by its whole name', () => {
    setServerRenderCookies('sidebar_state=false; fancy-availability-prompt-dismissed=1; x_sidebar_state=true');
    expect(cookieValue('sidebar_state')).toBe('false');
    expect(cookieValue('fancy-availability-prompt-dismissed')).toBe('1');
    expect(cookieValue('state')).toBeUndefined();
  });

  it('is undefined when there are no cookies', () => {
    expect(cookieValue('sidebar_state')).toBeUndefined();
  });

  it("asks the browser for its cookies once, and again only after the page set one (each read is a slow phone's IPC)", () => {
    let jar = 'sidebar_state=true';
    const written: string[] = [];
    const reads = vi.fn(() => jar);
    vi.stubGlobal('document', {
      get cookie() {
        return reads();
      },
      set cookie(line: string) {
        written.push(line);
        jar = line.split(';')[0];
      },
    });
    expect(cookieValue('sidebar_state')).toBe('true');
    expect(cookieValue('sidebar_state')).toBe('true');
    expect(reads).toHaveBeenCalledTimes(1);

    setPageCookie('sidebar_state', 'false', 604_800);
    expect(written).toEqual(['sidebar_state=false; path=/; max-age=604800; samesite=lax']);
    expect(cookieValue('sidebar_state')).toBe('false');
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
