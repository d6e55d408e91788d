import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoadError } from './load-error';

describe('LoadError', () => {
  it('says what failed, why when the error says, and offers to try again', () => {
    const html = renderToStaticMarkup(
      <LoadError title="We couldn't load the chat." error={new Error('You are offline.')} onRetry={() => undefined} />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('We couldn&#x27;t load the chat.');
    expect(html).toContain('You are offline.');
    expect(html).toContain('Try again');
  });

  it('leaves the reason out when there is none to give', () => {
    const html = renderToStaticMarkup(<LoadError title="We couldn't load your matches just now." onRetry={() => undefined} />);
    expect(html.match(/<p[ >]/g)).toHaveLength(1);
  });
});
