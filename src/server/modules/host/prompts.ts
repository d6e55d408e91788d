import { type InterestCategory, PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';

/**
 * Fancy's default host prompts (issue 29): what the host asks a room of strangers, per topic.
 * Written to be easy to answer in a line or two, about experiences rather than looks or status,
 * and open to anyone whoever they are and whoever they fancy. Admins replace a topic's list in
 * the admin area (host_topic_prompts); topics without their own list use their category's.
 */

const HANDWRITTEN: Record<string, string[]> = {
  'Board games': [
    'Which game would you bring to a games night with people you have only just met?',
    'Who is the most competitive person you have ever played against — and was it you?',
    "What's a game you love that nobody ever wants to play with you?",
    'Co-operative or cut-throat: which kind of player are you?',
    'What house rule would you add to any game, if you could?',
    'Which game ended in the best argument you have ever had over a table?',
  ],
  'Pub quizzes': [
    "What's your specialist round — the one you'd carry the team on?",
    'What is the best team name you have ever seen on a quiz sheet?',
    'Music round, picture round or general knowledge: which do you secretly dread?',
    'What fact do you always bring up, quiz or no quiz?',
    'When were you most certain of an answer — and completely wrong?',
    'If you could set one round yourself, what would it be about?',
  ],
  'Live music': [
    'Which artist would you travel the furthest to see live?',
    "What's the smallest venue you've seen someone brilliant in?",
    'Front row, the middle of the crowd or the back by the bar?',
    'Which song would make you drop everything and dance at a gig?',
    'Who did you discover as a support act and end up loving?',
    'What is the next gig in your diary — or the one you wish was?',
  ],
  'Stand-up comedy': [
    'Who is the first comedian who made you laugh until it hurt?',
    'Would you ever try an open mic night? What would your opening line be?',
    'Front row at a comedy gig: thrilling or terrifying?',
    "What's the funniest thing that has happened to you this month?",
    'Which comedy special would you put on for someone who needs cheering up?',
    'Is there a joke from years ago that still makes you laugh?',
  ],
  Baking: [
    'What did you first learn to bake, and who taught you?',
    'Sweet or savoury: where do your baking loyalties lie?',
    "What's your go-to bake when you want to impress people?",
    'Which technical challenge would you never, ever attempt?',
    'What smell from the oven takes you straight back to childhood?',
    'If you opened a tiny bakery, what would be on the counter?',
  ],
  Coffee: [
    'Where is the best cup of coffee you have ever had?',
    'Be honest: how many coffees a day is normal for you?',
    'Which café would you take someone to for a first chat?',
    'Cafetière, espresso machine, pour-over or a trusty jar of instant?',
    'What do you order when you are not having coffee?',
    'What is your coffee-shop people-watching habit?',
  ],
  'Book club': [
    'Which book have you recommended to the most people?',
    'What did you abandon halfway through, and do you feel guilty?',
    'Which fictional place would you most like to spend a weekend in?',
    'Audiobooks, e-readers or paper — and where do you read most?',
    'Which character would you most like to go for a drink with?',
    'What are you reading next?',
  ],
  Running: [
    'What got you running in the first place?',
    'Music, podcasts or just your own thoughts on a run?',
    'Morning runner or evening runner — and can you be persuaded otherwise?',
    'What is the most scenic run you have ever done?',
    'Which race is on your wish list?',
    "What's your post-run treat?",
  ],
  Hiking: [
    'Which walk would you take a visiting friend on?',
    'Map and compass, phone app, or follow whoever looks confident?',
    'What is always in your rucksack?',
    'Where in the UK do you still want to walk?',
    'What is the best pub you have ever found at the end of a walk?',
    'Sunrise summit or a gentle afternoon amble?',
  ],
  'Video games': [
    'What was the first game you were properly hooked on?',
    'Which game world would you most like to live in for a week?',
    'Solo adventures or playing with friends?',
    'What game are you playing at the moment?',
    'Which soundtrack from a game can you still hum?',
    'What is a game you think is underrated?',
  ],
  'Language exchange': [
    'Which word in another language do you wish English had?',
    'What was your most memorable mix-up in a language you were learning?',
    'Which language would you learn overnight if you could?',
    'How do you practise when nobody is around to talk to?',
    'What is a phrase from home that never translates well?',
    'Where would you most like to use the language you are learning?',
  ],
  'Sunday roasts': [
    'Which part of a roast would you fight for?',
    'Where is the best roast you have had in a pub?',
    'Roast at home with everyone, or out somewhere cosy?',
    'What is the most controversial thing you put on your plate?',
    'Who makes the best roast you know — and what is their secret?',
    'Vegetarian roasts: which one has won you over?',
  ],
};

/** Per-category prompts for topics without a handwritten list. `{tl}` is the topic mid-sentence. */
const BY_CATEGORY: Record<InterestCategory, string[]> = {
  'Arts & Creativity': [
    'What did you last make that you were properly pleased with?',
    'Who is a maker or artist whose work you would love to see in person?',
    'Where do you get your best ideas?',
    'What would you make if time and money were no object?',
    'Is there a {tl} project you gave up on that you would pick up again?',
    'What would you teach a complete beginner first?',
  ],
  Entertainment: [
    'What have you watched, read or heard lately that you keep telling people about?',
    'Which {tl} favourite have you revisited the most?',
    'What is a guilty pleasure you will defend to anyone?',
    'Who would you most like to meet from the world of {tl}?',
    'What got you into {tl} in the first place?',
    'What are you looking forward to next?',
  ],
  'Food & Cooking': [
    'What is your signature dish when friends come round?',
    'Which meal from your childhood could you eat every week?',
    'Where is the best thing you have eaten in the last month?',
    'What is one kitchen disaster you can laugh about now?',
    'Which cuisine would you love to learn to cook properly?',
    'If you could share a table with anyone, what would you cook for them?',
  ],
  'Learning & Education': [
    'What is the most interesting thing you have learned this year?',
    'Who is the best teacher you have ever had, and why?',
    'What got you curious about {tl}?',
    'What would you love to get better at in the next year?',
    'Which podcast, book or channel would you recommend to a beginner?',
    'What surprised you most when you started?',
  ],
  Lifestyle: [
    'What is a small thing that makes your week better?',
    'How did {tl} become part of your life?',
    'What does a really good Saturday look like for you?',
    'What is something you have changed your mind about recently?',
    'Who would you love to try {tl} with for the first time?',
    'What advice would you give someone just starting out?',
  ],
  'Sports & Fitness': [
    'What is your favourite way to stay active when the weather is awful?',
    'Team player or solo mission?',
    'What is a sporting moment you will never forget — watching or taking part?',
    'What keeps you going on the days you do not feel like it?',
    'Which {tl} goal are you working towards at the moment?',
    'What is the best thing about the people you meet through {tl}?',
  ],
  Technology: [
    'What is the most useful thing you have built or set up yourself?',
    'Which gadget could you not live without?',
    'What tech trend are you quietly sceptical about?',
    'What is a rabbit hole you fell down recently?',
    'What would you build if you had a free month?',
    'How did you first get into {tl}?',
  ],
  'Travel & Adventure': [
    'Where is the most unexpectedly lovely place you have been?',
    'Plan everything or see where the day takes you?',
    'What is one trip you still tell people about?',
    'Where is next on your list, and why there?',
    'What is the best thing you have eaten while travelling?',
    'Which UK place deserves more visitors?',
  ],
};

/** For 'General' and any topic that is not a predefined interest. */
const GENERAL = [
  'What is something you are looking forward to this month?',
  'What is the best thing that happened to you this week, however small?',
  'If you had a free Saturday with no plans, how would you spend it?',
  'What is a skill you would love to learn?',
  'Which place in the UK feels most like home to you?',
  'What is a recommendation — a film, a book, a walk, a café — you would give everyone here?',
];

const PROPER = new Set(['Spanish', 'French', 'Japanese', 'British Sign Language', 'Raspberry Pi', 'Munro bagging']);
function midSentence(topic: string): string {
  if (PROPER.has(topic) || !/^[A-Z][a-z]/.test(topic)) return topic;
  return topic[0].toLowerCase() + topic.slice(1);
}

const categoryOf = new Map(PREDEFINED_INTERESTS.map((i) => [i.name, i.category]));

/** Fancy's default prompts for a topic: handwritten where there are some, else its category's, else general ones. */
export function defaultPrompts(topic: string): string[] {
  const written = HANDWRITTEN[topic];
  if (written) return written;
  const category = categoryOf.get(topic);
  if (!category) return GENERAL;
  return BY_CATEGORY[category].map((p) => p.replaceAll('{tl}', midSentence(topic)));
}

/** Topics with handwritten prompts (for tests and the admin page). */
export const HANDWRITTEN_TOPICS = Object.keys(HANDWRITTEN);

/** Whether a topic may have prompts: a predefined interest or 'General'. */
export const isKnownTopic = (topic: string) => topic === 'General' || categoryOf.has(topic);

/** The prompt as a nudge's reply quotes it: at most this many characters, cut at a word. */
const QUOTED_PROMPT_MAX = 80;

function quoted(prompt: string): string {
  const text = prompt.trim().replace(/\s+/g, ' ');
  if (text.length <= QUOTED_PROMPT_MAX) return text;
  const cut = text.slice(0, QUOTED_PROMPT_MAX);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), QUOTED_PROMPT_MAX / 2)).replace(/[\s,;:.!?—–-]+$/, '')}…`;
}

/**
 * Suggested replies for the nudge: each takes up the room's current prompt (in single quotes: the app shows the reply itself in double ones) and hands the
 * question on, so it fits whatever was asked and puts no words in a member's mouth about themselves.
 */
const REPLIES: ((prompt: string) => string)[] = [
  (p) => `Hi all! ‘${p}’ — great question. I've been reading along: who has the best answer so far?`,
  (p) => `Hello everyone! Love this one: ‘${p}’ I need a minute to think — what would you all say?`,
  (p) => `Hi! Sorry I've been quiet. ‘${p}’ is a tough one — does anyone want to go first?`,
  (p) => `Ooh, ‘${p}’ — I'm torn. Can someone share theirs to get me started?`,
];

/** A reply to `prompt`: the same for the same member and mixer (`seed`), different across members. */
export function suggestedReply(seed: string, prompt: string): string {
  let h = 0;
  for (const c of seed) h = (h * 31 + c.charCodeAt(0)) | 0;
  return REPLIES[Math.abs(h) % REPLIES.length](quoted(prompt));
}

/** The halfway game's polls: light, one tap, nothing that asks about anyone's body, gender or past. */
export const DEFAULT_POLLS: { question: string; options: string[] }[] = [
  { question: 'Best board game for a first date?', options: ['Codenames', 'Jenga', 'Scrabble', 'Monopoly (brave)'] },
  { question: 'Would you rather have a picnic in the park or a cosy night in the pub?', options: ['Picnic in the park', 'Cosy pub'] },
  { question: 'The perfect Sunday starts with…', options: ['A long lie-in', 'A walk', 'A big brunch', 'A swim'] },
  { question: 'Would you rather go to a gig or a comedy night?', options: ['A gig', 'A comedy night'] },
  { question: 'Tea or coffee?', options: ['Tea', 'Coffee', 'Neither, thanks'] },
  { question: 'Would you rather explore a new city or a quiet coastline?', options: ['A new city', 'A quiet coastline'] },
];

/** The poll for a mixer: the same one for every instance (chosen by the mixer's id). */
export function pollFor(mixerId: string): { question: string; options: string[] } {
  let h = 0;
  for (const c of mixerId) h = (h * 31 + c.charCodeAt(0)) | 0;
  return DEFAULT_POLLS[Math.abs(h) % DEFAULT_POLLS.length];
}
