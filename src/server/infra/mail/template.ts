import type { MailMessage } from './mailer';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Another member's name as it may appear in a mail: letters, marks, spaces, apostrophes and
 * hyphens only, at most 30 characters. Names are chosen by members, so a name in someone
 * else's inbox must never carry a link, an address or a message (docs/decisions/009).
 */
export function memberNameForMail(name: string | null | undefined, fallback = 'A member'): string {
  const clean = (name ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}' -]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 30)
    .trim();
  return clean || fallback;
}

/** One plain, branded layout for every mail: text and HTML from the same parts. */
export function composeMail(
  to: string,
  parts: { subject: string; greeting?: string; lines: string[]; action?: { label: string; url: string }; footer?: string },
): MailMessage {
  const footer = parts.footer ?? 'You are receiving this because of your Fancy account.';
  const text = [
    parts.greeting,
    ...parts.lines,
    parts.action ? `${parts.action.label}: ${parts.action.url}` : undefined,
    '—',
    'Fancy',
    footer,
  ]
    .filter((l): l is string => Boolean(l))
    .join('\n\n');
  const button = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#c2185b;color:#fff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a></p><p style="font-size:13px;color:#6b5b7b">Or paste this link into your browser: ${escapeHtml(parts.action.url)}</p>`
    : '';
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1f1630;max-width:560px;margin:0 auto;padding:24px">
<p style="font-size:22px;font-weight:700;color:#c2185b;margin:0 0 16px">Fancy</p>
${parts.greeting ? `<p>${escapeHtml(parts.greeting)}</p>` : ''}
${parts.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${button}
<p style="font-size:12px;color:#6b5b7b;margin-top:32px">${escapeHtml(footer)}</p></body></html>`;
  return { to, subject: parts.subject, text, html };
}
