import { describe, expect, it } from 'vitest';
import { chatMessageInputSchema } from './mixers';
import {
  insertMention,
  MENTION_MESSAGES,
  matchMentionable,
  mentionQueryAt,
  mentionsInBody,
  splitMentions,
  typedMentions,
} from './chat-live';

const maya = { id: 'u-maya', firstName: 'Maya' };
const mark = { id: 'u-mark', firstName: 'Mark' };
const rhys = { id: 'u-rhys', firstName: 'Rhys' };

describe('mentionQueryAt', () => {
  it('finds the @query being typed at the caret', () => {
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('hi @Ma', 6)).toEqual({ start: 3, query: 'Ma' });
    expect(mentionQueryAt('hi\n@rh', 6)).toEqual({ start: 3, query: 'rh' });
  });

  it('ignores emails, finished mentions and a caret elsewhere', () => {
    expect(mentionQueryAt('mail maya@example.com', 21)).toBeNull();
    expect(mentionQueryAt('@Maya hello', 11)).toBeNull();
    expect(mentionQueryAt('hi @Ma', 2)).toBeNull();
    expect(mentionQueryAt('no at sign', 10)).toBeNull();
  });
});

describe('picking and sending mentions', () => {
  it('offers people whose first name starts with the query', () => {
    expect(matchMentionable([maya, mark, rhys], 'ma')).toEqual([maya, mark]);
    expect(matchMentionable([maya, mark, rhys], '')).toEqual([maya, mark, rhys]);
    expect(matchMentionable([maya, mark, rhys], 'z')).toEqual([]);
  });

  it('replaces the @query with @First and a space, caret after it', () => {
    expect(insertMention('hi @ma what', 3, 6, 'Maya')).toEqual({ text: 'hi @Maya  what', caret: 9 });
    expect(insertMention('@', 0, 1, 'Rhys')).toEqual({ text: '@Rhys ', caret: 6 });
  });

  it('sends only the picked people still named in the body, once each', () => {
    expect(mentionsInBody('@Maya and @Rhys, hi @Maya', [maya, rhys])).toEqual(['u-maya', 'u-rhys']);
    expect(mentionsInBody('@Rhys hi', [maya, rhys])).toEqual(['u-rhys']);
    // @Mayan is not @Maya; an email is not a mention.
    expect(mentionsInBody('@Mayan hi, maya@x.com', [maya])).toEqual([]);
  });

  it('counts a first name typed in full as a mention when no one else in the room shares it', () => {
    expect(typedMentions('@maya did you go? and @Rhys.', [maya, mark, rhys])).toEqual(['u-maya', 'u-rhys']);
    // Not a mention: a longer name, an email, no @, a name two people share.
    expect(typedMentions('@Mayan hi, maya@x.com, Mark', [maya, mark])).toEqual([]);
    expect(typedMentions('@Maya hi', [maya, { id: 'u-maya-2', firstName: 'maya' }])).toEqual([]);
  });

  it('splits a body into text and the mentioned names for highlighting', () => {
    expect(splitMentions('hey @Maya and @rhys!', [maya, rhys])).toEqual([
      { text: 'hey ' },
      { text: '@Maya', userId: 'u-maya' },
      { text: ' and ' },
      { text: '@rhys', userId: 'u-rhys' },
      { text: '!' },
    ]);
    expect(splitMentions('no one here', [])).toEqual([{ text: 'no one here' }]);
  });

  it('the chat input takes at most 8 mention ids', () => {
    expect(chatMessageInputSchema.safeParse({ body: 'hi', mentions: ['a'] }).success).toBe(true);
    const tooMany = chatMessageInputSchema.safeParse({ body: 'hi', mentions: Array.from({ length: 9 }, (_, i) => `u${i}`) });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0].message).toBe(MENTION_MESSAGES.tooMany);
  });
});
