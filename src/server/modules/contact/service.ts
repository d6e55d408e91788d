import type { ContactMessage } from '../../../shared/schemas/contact';
import type { AppDeps } from '../../deps';
import { contactMessages } from '../../db/schema';
import { composeMail } from '../../infra/mail/template';

/** Stores a Contact Support message and mails it to the support inbox with the sender's reply details. */
export async function submitContactMessage(
  deps: Pick<AppDeps, 'config' | 'database' | 'mailer'>,
  input: ContactMessage,
  sender: { userId: string | null; accountEmail?: string | null },
): Promise<{ id: string }> {
  const [row] = await deps.database.db
    .insert(contactMessages)
    .values({ userId: sender.userId, name: input.name, email: input.email, topic: input.topic, message: input.message })
    .returning({ id: contactMessages.id });

  const paragraphs = input.message
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  await deps.mailer.sendMail(
    composeMail(deps.config.supportEmail, {
      subject: `[Contact] ${input.topic} — ${input.name}`,
      greeting: `New Contact Support message (${row.id}).`,
      lines: [
        `From: ${input.name} <${input.email}>`,
        `Reply to: ${input.email}`,
        `Topic: ${input.topic}`,
        sender.userId
          ? `Signed-in member: ${sender.userId}${sender.accountEmail && sender.accountEmail !== input.email ? ` (account email ${sender.accountEmail})` : ''}`
          : 'Sent by a visitor who was not signed in.',
        'Message:',
        ...paragraphs,
      ],
      footer: 'Sent from the Contact Support form on Fancy.',
    }),
  );
  return { id: row.id };
}
