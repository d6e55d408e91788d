import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { ListStates } from './states';

/** ListStates: the one loading / error / empty / rows switch of the admin lists. */
const query = (over: Partial<{ isPending: boolean; isError: boolean; error: unknown }> = {}) => ({
  isPending: false,
  isError: false,
  error: null,
  refetch: () => undefined,
  ...over,
});

const render = (q: ReturnType<typeof query>, opts: { isEmpty?: boolean; quietError?: boolean } = {}) =>
  renderToStaticMarkup(
    <ListStates
      query={q}
      loading="Loading reports"
      isEmpty={opts.isEmpty ?? false}
      empty={<p>Nothing here</p>}
      quietError={opts.quietError}
    >
      <table data-testid="rows" />
    </ListStates>,
  );

describe('ListStates', () => {
  it('says what is loading while the first page comes, and shows no rows', () => {
    const html = render(query({ isPending: true }), { isEmpty: true });
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading reports');
    expect(html).not.toContain('data-testid="rows"');
    expect(html).not.toContain('Nothing here');
  });

  it("shows the server's message and a retry when loading failed, or nothing where the page already says so", () => {
    const failed = query({ isError: true, error: new ApiError(403, 'forbidden', 'Admins only.') });
    const html = render(failed);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Admins only.');
    expect(html).toContain('Try again');
    expect(html).not.toContain('data-testid="rows"');
    expect(render(failed, { quietError: true })).toBe('');
  });

  it('shows the empty state for an empty list and the rows otherwise', () => {
    expect(render(query(), { isEmpty: true })).toBe('<p>Nothing here</p>');
    expect(render(query())).toBe('<table data-testid="rows"></table>');
  });
});
