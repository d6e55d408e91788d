import { sql } from 'drizzle-orm';
import { type InterestCategory, PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import type { MixerTheme } from '../../../shared/schemas/mixers';
import type { Db } from '../../db/client';
import { topicTemplates } from '../../db/schema';

/**
 * Default topic templates (issue 14): what a formed mixer about each predefined interest is
 * called, says and opens with. Handwritten for the popular topics, per-category wording for the
 * rest. Seeded with `on conflict (topic) do nothing`, so an admin's edits survive restarts.
 */

export interface TopicTemplate {
  topic: string;
  title: string;
  description: string;
  theme: MixerTheme;
  icebreaker: string;
}

type Written = Omit<TopicTemplate, 'topic'>;

const HANDWRITTEN: Record<string, Written> = {
  'Board games': {
    title: 'Board Game Natter',
    description:
      'For people who own too many boxes with tiny wooden pieces. Swap favourites, confess your worst trades and find players for the next game night.',
    theme: 'berry',
    icebreaker: 'Which board game would you refuse to play with a partner, and what happened the last time you tried?',
  },
  'Pub quizzes': {
    title: 'Pub Quiz Warm-Up',
    description: 'Trivia lovers, general-knowledge hoarders and people who only come for the picture round. Bring your best useless fact.',
    theme: 'citrus',
    icebreaker: "What's the most useless fact you know that has actually won you a point in a quiz?",
  },
  'Live music': {
    title: 'Gig Buddies',
    description: 'The gigs that changed your life, the ones you still regret missing, and who is going to the next one.',
    theme: 'midnight',
    icebreaker: "What's the best gig you've ever been to, and who did you go with?",
  },
  Techno: {
    title: 'Warehouse Techno Talk',
    description: 'For people who feel most at home in a dark room with a big sound system. Sets, clubs, festivals and after-parties.',
    theme: 'midnight',
    icebreaker: 'What was the first track that made you fall in love with dance music?',
  },
  'Stand-up comedy': {
    title: 'Open Mic Chat: Comedy Fans',
    description: 'Favourite comedians, the worst heckles you have witnessed, and the funniest thing that happened to you this week.',
    theme: 'citrus',
    icebreaker: 'Which comedian would you most like to have round for dinner, and what would you cook for them?',
  },
  'Indie films': {
    title: 'Small Screens, Big Films',
    description: 'Festival gems, cult favourites and the film you keep telling everyone to watch.',
    theme: 'midnight',
    icebreaker: "What's a film hardly anyone has seen that you think everyone should?",
  },
  Baking: {
    title: 'Bake Off Back Room',
    description: 'Soggy bottoms, showstoppers and the recipes you guard with your life.',
    theme: 'sunset',
    icebreaker: "What's the bake you're proudest of, and the one that went most spectacularly wrong?",
  },
  Sourdough: {
    title: 'Sourdough Starter Swap',
    description: 'Crumb shots, hydration debates and the names we give our starters.',
    theme: 'sunset',
    icebreaker: "What's your starter called, and what's the worst thing it has ever done to you?",
  },
  Coffee: {
    title: 'Flat Whites & Hot Takes',
    description: 'Beans, brew methods and the independent cafés worth crossing town for.',
    theme: 'forest',
    icebreaker: 'What is your coffee order, and what does it say about you?',
  },
  'Wine tasting': {
    title: 'Uncorked: Wine Chat',
    description: 'No snobbery: from supermarket bargains to the bottle you saved for a special occasion.',
    theme: 'berry',
    icebreaker: 'What is the best bottle you have had for under a tenner?',
  },
  'Craft beer': {
    title: 'Hop Talk',
    description: 'Breweries, taprooms and the pint that converted you.',
    theme: 'citrus',
    icebreaker: 'Which taproom would you take a friend to on their first visit to your town?',
  },
  'Sunday roasts': {
    title: 'The Great Roast Debate',
    description: 'Yorkshires with everything? Gravy before or after? The pubs that do it best.',
    theme: 'sunset',
    icebreaker: 'Describe your perfect Sunday roast plate — and defend one controversial choice.',
  },
  'Language exchange': {
    title: 'Language Exchange Café',
    description: 'Practise a language, help someone with yours, and laugh at the mistakes together.',
    theme: 'ocean',
    icebreaker: 'Which language are you learning, and what is your favourite word in it so far?',
  },
  'Book club': {
    title: 'Book Club, Minus the Homework',
    description: 'What you are reading now, what you abandoned and what you would press into a stranger’s hands.',
    theme: 'forest',
    icebreaker: 'Which book would you hand a first date to tell them everything they need to know about you?',
  },
  Reading: {
    title: 'Bring Your Current Read',
    description: 'Fiction, non-fiction, comics or cereal boxes: tell us what is on your bedside table.',
    theme: 'forest',
    icebreaker: 'What are you reading right now, and would you recommend it?',
  },
  Museums: {
    title: 'Museum Lates & Gallery Gossip',
    description: 'Exhibitions worth queuing for, hidden collections and the strangest object you have ever seen behind glass.',
    theme: 'ocean',
    icebreaker: 'What is the strangest thing you have ever seen in a museum?',
  },
  Running: {
    title: 'Run Club Chat',
    description: 'Routes, race plans, kit that works and kit that chafes. All paces welcome.',
    theme: 'ocean',
    icebreaker: "What's your favourite route to run, and what keeps you going on the last mile?",
  },
  Parkrun: {
    title: 'Saturday Parkrunners',
    description: 'PBs, tourism, volunteering and the best post-run coffee spots.',
    theme: 'forest',
    icebreaker: 'Which parkrun is your home course, and what makes it special?',
  },
  Bouldering: {
    title: 'Bouldering Beta & Banter',
    description: 'Problems you are projecting, walls worth visiting and the best excuses for falling off.',
    theme: 'citrus',
    icebreaker: "What's the climb you keep falling off at the moment, and what's your best excuse?",
  },
  Climbing: {
    title: 'Climbers’ Corner',
    description: 'Indoor walls, outdoor crags, ropes and rests.',
    theme: 'forest',
    icebreaker: 'Where is the best place you have ever climbed?',
  },
  Yoga: {
    title: 'Mats Down, Chat Up',
    description: 'Styles, teachers, favourite poses and the ones you quietly skip.',
    theme: 'ocean',
    icebreaker: 'What got you on the mat in the first place?',
  },
  'Wild swimming': {
    title: 'Cold Water Club',
    description: 'Lakes, lidos, rivers and the sea: where to go and how to survive the first minute.',
    theme: 'ocean',
    icebreaker: 'Where was your most memorable swim, and how cold was it really?',
  },
  Hiking: {
    title: 'Hike Planning Huddle',
    description: 'Trails, hills and the pub at the end. Share routes and find people to walk with.',
    theme: 'forest',
    icebreaker: "What's the best view you've ever earned on a hike, and was it worth the blisters?",
  },
  Gardening: {
    title: 'Green Fingers',
    description: 'Balconies, back gardens and window boxes: what is growing, what is dying and what the slugs got.',
    theme: 'forest',
    icebreaker: 'What are you growing right now, and what are you most proud of?',
  },
  'Dog walking': {
    title: 'Walkies & Talkies',
    description: 'For dog people (with or without a dog). Best walks, worst habits and proud-owner photos in words.',
    theme: 'forest',
    icebreaker: "Tell us about a dog you've loved — what was their most ridiculous habit?",
  },
  'Video games': {
    title: 'Press Start: Gamers’ Lounge',
    description: 'What you are playing, what you are replaying and the game that got you hooked.',
    theme: 'midnight',
    icebreaker: 'Which game could you replay forever, and why?',
  },
  Photography: {
    title: 'Through the Lens',
    description: 'Cameras, phones, light and the shot you still think about.',
    theme: 'sunset',
    icebreaker: 'Describe the best photo you have ever taken — where were you?',
  },
  Festivals: {
    title: 'Festival Season Planning',
    description: 'Line-ups, tents, wellies and the set you will never forget.',
    theme: 'sunset',
    icebreaker: 'What is the best festival moment you have had, and who were you with?',
  },
  Theatre: {
    title: 'Curtain Up: Theatre Chat',
    description: 'From the West End to the pub back room: shows, actors and the best seats for the money.',
    theme: 'berry',
    icebreaker: 'What is the best thing you have seen on stage, and why did it stay with you?',
  },
};

/** Per-category wording for topics without a handwritten template. `{t}` is the topic, `{tl}` in lower case. */
const BY_CATEGORY: Record<InterestCategory, { title: string; description: string; theme: MixerTheme; icebreaker: string }> = {
  'Arts & Creativity': {
    title: '{t} Circle',
    description: 'For people who love {tl}: works in progress, favourite makers and the projects you keep meaning to finish.',
    theme: 'sunset',
    icebreaker: 'What got you into {tl}, and what are you working on at the moment?',
  },
  Entertainment: {
    title: '{t} Fans Assemble',
    description: 'Favourites, hot takes and recommendations for fellow {tl} fans.',
    theme: 'berry',
    icebreaker: 'What is your all-time favourite {tl} moment, and who did you share it with?',
  },
  'Food & Cooking': {
    title: '{t} Table',
    description: 'Tips, favourite spots and the best thing you have tasted lately — for everyone who loves {tl}.',
    theme: 'sunset',
    icebreaker: 'Where would you take someone for the best {tl} near you?',
  },
  'Learning & Education': {
    title: 'Curious About {t}',
    description: 'Swap what you have learned, what you are reading and what still puzzles you about {tl}.',
    theme: 'ocean',
    icebreaker: 'What is the most surprising thing you have learned about {tl}?',
  },
  Lifestyle: {
    title: '{t} Chat',
    description: 'Small wins, good habits and honest stories from people who love {tl}.',
    theme: 'forest',
    icebreaker: 'How did {tl} become part of your life, and what do you love most about it?',
  },
  'Sports & Fitness': {
    title: '{t} Crew',
    description: 'Training, matches, kit and where to play: a chat for everyone into {tl}, whatever your level.',
    theme: 'citrus',
    icebreaker: 'What is your proudest {tl} moment — or your funniest fail?',
  },
  Technology: {
    title: '{t} Meet-Up',
    description: 'Projects, tools and the rabbit holes you fell down — for people who get excited about {tl}.',
    theme: 'midnight',
    icebreaker: 'What is the {tl} project you are proudest of, or the one you dream of starting?',
  },
  'Travel & Adventure': {
    title: '{t} Adventures',
    description: 'Trips taken, trips planned and the gear that never let you down — for everyone who loves {tl}.',
    theme: 'ocean',
    icebreaker: 'What is the best {tl} trip you have done, and where is next on your list?',
  },
};

/** Names that keep their capitals mid-sentence. */
const PROPER = new Set(['Spanish', 'French', 'Japanese', 'British Sign Language', 'Raspberry Pi', 'Munro bagging']);
/** "Reality TV" → "reality TV"; proper names and "3D printing" stay as they are. */
function midSentence(topic: string): string {
  if (PROPER.has(topic) || !/^[A-Z][a-z]/.test(topic)) return topic;
  return topic[0].toLowerCase() + topic.slice(1);
}
const fill = (text: string, topic: string) => text.replaceAll('{t}', topic).replaceAll('{tl}', midSentence(topic));

/** The default template of every predefined interest (handwritten where there is one). */
export function defaultTopicTemplates(): TopicTemplate[] {
  return PREDEFINED_INTERESTS.map(({ name, category }) => {
    const written = HANDWRITTEN[name];
    if (written) return { topic: name, ...written };
    const c = BY_CATEGORY[category];
    return {
      topic: name,
      title: fill(c.title, name),
      description: fill(c.description, name),
      theme: c.theme,
      icebreaker: fill(c.icebreaker, name),
    };
  });
}

/** Inserts missing default templates; existing ones (maybe edited by an admin) are left alone. */
export async function seedTopicTemplates(db: Db): Promise<void> {
  await db.insert(topicTemplates).values(defaultTopicTemplates()).onConflictDoNothing({ target: topicTemplates.topic });
}

/** Active templates by topic (inactive topics are not formed). */
export async function loadActiveTemplates(db: Pick<Db, 'execute'>): Promise<Map<string, TopicTemplate>> {
  const result = (await db.execute(
    sql`select topic, title, description, theme, icebreaker from topic_templates where active order by topic`,
  )) as unknown as { rows: TopicTemplate[] };
  return new Map(result.rows.map((r) => [r.topic, r]));
}
