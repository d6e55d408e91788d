import { type SQL, sql } from 'drizzle-orm';
import { REPLY_SNIPPET_MAX } from '../../shared/schemas/chat';

/**
 * SQL pieces both chats use for replies and reactions (issue 29). Mixer chat and private
 * messages keep their own tables; what a line shows is built the same way for both.
 */

/** A member's first name from profile/user name columns, as `firstNameOf` writes it. */
export const firstNameSql = (name: SQL) => sql`coalesce(nullif(split_part(btrim(coalesce(${name}, '')), ' ', 1), ''), 'Member')`;

/** The quote of an original line: its first characters on one line (as `snippetOf` in shared/schemas/chat). */
export const snippetSql = (body: SQL) =>
  sql`(case when char_length(btrim(regexp_replace(${body}, '\\s+', ' ', 'g'))) > ${sql.raw(String(REPLY_SNIPPET_MAX))}
        then left(btrim(regexp_replace(${body}, '\\s+', ' ', 'g')), ${sql.raw(String(REPLY_SNIPPET_MAX - 1))}) || '…'
        else btrim(regexp_replace(${body}, '\\s+', ' ', 'g')) end)`;

/**
 * JSON array of a line's reactions as the viewer may see them: `[{ emoji, by: [{ id, firstName }] }]`,
 * groups in the order they first appeared, people hidden from the viewer left out.
 */
export const reactionsJsonSql = (
  table: 'mixer_message_reactions' | 'direct_message_reactions',
  messageId: SQL,
  hidden: (user: SQL) => SQL,
) =>
  sql`(select coalesce(json_agg(json_build_object('emoji', g.emoji, 'by', g.by) order by g.first), '[]'::json) from (
        select x.emoji, min(x.created_at) as first,
               json_agg(json_build_object('id', x.user_id, 'firstName', ${firstNameSql(sql`coalesce(xp.full_name, xu.name)`)}) order by x.created_at) as by
          from ${sql.raw(table)} x
          join "user" xu on xu.id = x.user_id
          left join profiles xp on xp.id = x.user_id
         where x.message_id = ${messageId} and not ${hidden(sql`x.user_id`)}
         group by x.emoji) g)`;
