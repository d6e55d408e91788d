import { findPhoneNumbersInText } from 'libphonenumber-js';
import { LinkifyIt } from 'linkify-it';
import { DataSet, englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { SAFETY_FLAGS, type SafetyFlag } from './flags';
import { foldText, normaliseFolded } from './normalise';

/**
 * The text detectors of "Before harm" (issue 30): one pure function per detector, run on our own
 * server (and nowhere else) before a line is saved, and on profile texts. Measured against the
 * labelled set in tests/fixtures/safety/lines.json (bench/safety.ts prints precision and recall).
 */

export { SAFETY_FLAGS, type SafetyFlag };

export interface DetectOptions {
  /** First names (or any names) of the people in the room: "@Maya" is a mention, not a handle. */
  participants?: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Contact details and off-platform moves
// ---------------------------------------------------------------------------------------------

const NUMBER_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  o: '0',
  nought: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};

/**
 * Digits written in words or with letters for digits ("zero seven seven…", "07 7OO 900 123",
 * "double seven"): the digits of every run of number-like tokens. A run ends at any other word.
 */
function digitRuns(folded: string): string[] {
  const runs: string[] = [];
  let current = '';
  let repeat = 1;
  const flush = () => {
    if (current) runs.push(current);
    current = '';
    repeat = 1;
  };
  for (const token of folded.split(/[\s,;()[\]/]+|(?<=\d)[-._*~](?=\d)|(?<=[a-z])-(?=[a-z])/)) {
    if (!token) continue;
    const t = token.replace(/^[-.:]+|[-.:]+$/g, '');
    if (t === 'double' || t === 'triple') {
      repeat = t === 'double' ? 2 : 3;
      continue;
    }
    let digits: string | null = null;
    if (/^\+?\d+$/.test(t)) digits = t.replace('+', '');
    else if (/^[0-9oil]+$/.test(t) && /\d/.test(t) && t.length >= 2) digits = t.replace(/o/g, '0').replace(/[il]/g, '1');
    else if (t in NUMBER_WORDS) digits = NUMBER_WORDS[t];
    if (digits === null) {
      flush();
      continue;
    }
    current += digits.length === 1 ? digits.repeat(repeat) : digits;
    repeat = 1;
  }
  flush();
  return runs;
}

const looksLikePhone = (digits: string) => digits.length >= 10 && digits.length <= 15 && /^(0|44|7|00|1\d{9}$|[2-9]\d{9,})/.test(digits);

function phoneIn(folded: string): boolean {
  // libphonenumber is the costly part: only lines with enough digits to hold a number reach it.
  if ((folded.match(/\d/g)?.length ?? 0) >= 7 && findPhoneNumbersInText(folded, 'GB').length > 0) return true;
  return digitRuns(folded).some(looksLikePhone);
}

/** Exported for its test (linksIn's shortcut against the whole scan). */
export const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true }).tlds(
  ['app', 'link', 'page', 'site', 'online', 'xyz', 'me', 'ly'],
  true,
);

const DISGUISED_EMAIL =
  /\b[a-z0-9._-]{2,}\s*(?:\(at\)|\[at\]|\{at\}|\sat\s|@)\s*(?:gmail|hotmail|yahoo|outlook|icloud|live|aol|proton(?:mail)?|me|mail|[a-z0-9-]+)\s*(?:\.|\(dot\)|\[dot\]|\sdot\s)\s*(?:com|co\.?\s*uk|net|org|io|me|uk)\b/;
const MAIL_PROVIDER = /\b(?:my )?(?:gmail|hotmail|yahoo|outlook|icloud|protonmail|e-?mail(?: address)?)\s*(?:is|:|=|-)\s*[a-z0-9._-]{3,}/;

type Links = ReturnType<LinkifyIt['match']>;

/**
 * What linkify finds in a line. Every link it can find has a schema (`http:`, `//`, `mailto:`…),
 * an `@` or a dot right before a top-level domain, so a line with none of those is not scanned:
 * its scan tries a long pattern at every position and is a chat line's costliest check.
 */
const LINK_SIGN = /[:@]|\/\/|\.\S/;
export const linksIn = (folded: string): Links => (LINK_SIGN.test(folded) ? linkify.match(folded) : null);

function emailIn(folded: string, links: Links): boolean {
  if (links?.some((m) => m.schema === 'mailto:')) return true;
  return DISGUISED_EMAIL.test(folded) || MAIL_PROVIDER.test(folded);
}

const SPOKEN_LINK =
  /\b(?!the\b|a\b)[a-z0-9-]{2,}\s*(?:\(dot\)|\[dot\]|\sdot\s)\s*(?:com|co\s*\.?\s*uk|net|org|io|me|ly|ee|app|tv)\b|\b(?:slash|forward slash)\s+[a-z0-9_.]{2,}|\b(?:linktr\.?\s?ee|wa\.me|t\.me|bit\.ly|onlyfans)\b/;

function linkIn(folded: string, links: Links): boolean {
  if (links?.some((m) => m.schema !== 'mailto:')) return true;
  return SPOKEN_LINK.test(folded);
}

const APPS =
  'whats ?app|whatsapp|watsapp|telegram|signal|snap ?chat|snap|insta(?:gram)?|ig|kik|discord|wechat|viber|line app|facebook|fb|messenger|tik ?tok|twitter|imessage|facetime|skype|hinge|tinder|bumble|onlyfans|threads|bereal|linkedin|x';
const HANDLE_APPS =
  'insta(?:gram)?|ig|snap ?chat|snap|sc|tik ?tok|tt|twitter|kik|discord|telegram|tg|threads|bereal|onlyfans|wechat|linkedin|fb|facebook';
const OFF_PLATFORM = [
  // "add me on insta", "text me on WhatsApp", "hit me up on snap", "find me on tiktok"
  new RegExp(
    `\\b(?:add|text|message|msg|dm|hit|find|follow|reach|ping|call|contact|chat to|talk to|ring|facetime|snap|catch|see)\\s+(?:me|us)\\s+(?:up\\s+)?(?:on|at|via|over|through)\\s+(?:the\\s+)?(?:${APPS})\\b`,
  ),
  // "let's move to WhatsApp", "switch to telegram", "take this to snap", "carry on over on insta"
  new RegExp(
    `\\b(?:move|moving|switch|swap|go|take (?:this|it)|continue|carry on|jump|hop|chat|talk|speak|message)\\s+(?:this\\s+)?(?:over\\s+)?(?:to|on|onto|via)\\s+(?:(?:my|the)\\s+)?(?:${APPS})\\b`,
  ),
  new RegExp(`\\b(?:are you|r u|you|u) on (?:${APPS})\\b`),
  new RegExp(`\\b(?:hmu|dm me|msg me|text me|add me|ring me)\\s+(?:on|at|via)\\s+(?:${APPS})\\b`),
  new RegExp(`\\b(?:${APPS})\\s+(?:me|instead)\\b`),
  new RegExp(`\\b(?:my|your|ur) (?:${APPS}) (?:number|no|details|name|handle|username|account|is)\\b`),
  // "insta: maya_m", "snap - mayam92", "my ig is maya.m", "ig @maya"
  new RegExp(`\\b(?:${HANDLE_APPS})\\s*(?::|=|-|@|handle|username|name)\\s*@?\\s*[a-z0-9_.]{3,}`),
  new RegExp(`\\b(?:${HANDLE_APPS})\\s+@?(?=[a-z0-9_.]*[_.0-9])[a-z][a-z0-9_.]{2,}`),
  // "what's your number", "give me your digits", "my mobile is"
  /\b(?:your|ur|my)\s+(?:phone\s+|mobile\s+)?(?:number|digits|no\.?|mobile|cell|email|e-mail|email address)\b(?!\s+(?:one|1|two|three|of|plate|in|on the list|ten|five))/,
  /\b(?:whats|what's|what is|give me|send me|can i (?:get|have)|drop)\s+(?:your|ur)\s+(?:number|digits|email|e-mail|insta|snap|ig)\b(?!\s+(?:one|1)\b)/,
];

/**
 * A list of rules as one pattern, each rule an alternative: it matches where any rule does, in one
 * scan of the line instead of one per rule. A rule's flags would be lost here, and its numbered
 * backreferences would point at another rule's groups, so rules have neither.
 */
function anyOf(rules: readonly RegExp[]): RegExp {
  if (rules.some((re) => re.flags || /\\[1-9]/.test(re.source))) throw new Error('anyOf: a rule with flags or a backreference');
  return new RegExp(rules.map((re) => `(?:${re.source})`).join('|'));
}

const OFF_PLATFORM_ANY = anyOf(OFF_PLATFORM);

function participantNames(opts?: DetectOptions): Set<string> {
  const names = new Set<string>();
  for (const name of opts?.participants ?? []) {
    const folded = foldText(name).trim();
    if (!folded) continue;
    names.add(folded.replace(/\s+/g, ''));
    for (const part of folded.split(/\s+/)) names.add(part);
  }
  return names;
}

/** "@name" (or "@ name_1") that is not a mention of someone in the room. */
export const hasSocialHandle = (text: string, opts?: DetectOptions) => handleIn(foldText(text), opts);
function handleIn(folded: string, opts?: DetectOptions): boolean {
  const names = participantNames(opts);
  for (const m of folded.matchAll(/(^|[^a-z0-9._%+-])@(\s?)([a-z0-9_.]{2,30})/g)) {
    const handle = m[3].replace(/[.]+$/, '');
    if (names.has(handle)) continue;
    if (m[2] && !/^[a-z][a-z0-9_.]*[_.0-9][a-z0-9_.]*$/.test(handle)) continue;
    if (/^\d+(?:am|pm)?$/.test(handle)) continue;
    return true;
  }
  return OFF_PLATFORM_ANY.test(folded);
}

/** Contact details or a move off Fancy: phone, e-mail, link, handle, "add me on…". */
export const detectContact = (text: string, opts?: DetectOptions) => contactIn(foldText(text), opts);
function contactIn(folded: string, opts?: DetectOptions): boolean {
  if (phoneIn(folded)) return true;
  const links = linksIn(folded);
  return emailIn(folded, links) || linkIn(folded, links) || handleIn(folded, opts);
}

// ---------------------------------------------------------------------------------------------
// Money and scams
// ---------------------------------------------------------------------------------------------

const MONEY = '(?:£|\\$|€|usd|gbp)\\s?\\d|\\d+\\s?(?:quid|pounds|dollars|euros|grand|k\\b)|money|cash|funds|a loan';
const SCAM_RULES = [
  new RegExp(`\\b(?:send|lend|loan|transfer|wire|give|spot|pay)\\s+(?:me|us)\\s+(?:some\\s+|a\\s+bit\\s+of\\s+|the\\s+)?(?:${MONEY})`),
  new RegExp(
    `\\b(?:can|could|would|will) you (?:please |pls )?(?:help (?:me )?(?:out )?(?:with )?)?(?:send|lend|loan|transfer|wire|spot|cover|pay)\\b.{0,40}(?:${MONEY})`,
  ),
  /\b(?:i|we) (?:really |urgently )?(?:need|borrow)\b.{0,30}(?:£|\$|€)\s?\d+.{0,40}\b(?:from you|you|asap|urgent|today|tonight|back)\b/,
  new RegExp(`\\b(?:borrow|lend me)\\b.{0,20}(?:${MONEY})`),
  /\b(?:send|transfer|pay|put)\b.{0,30}\b(?:to|into|in) my (?:paypal|bank|account|wallet|revolut|monzo|cash ?app)\b/,
  /\b(?:my )?paypal (?:is|me|address)\b|\bsend what you can\b/,
  new RegExp(`\\bhelp (?:me )?(?:out )?with (?:${MONEY})`),
  /\bneed (?:some |the )?(?:money|cash|funds)\b.{0,20}\b(?:urgent(?:ly)?|asap|today|tonight|now|please)\b/,
  /\b(?:cover|pay for|pay) my (?:hotel|rent|ticket|flight|visa|bills?|fees?|taxi|train|phone bill)\b/,
  /\b(?:paypal me|cash ?app|venmo|zelle|western union|money ?gram|sort code|iban|bank (?:details|transfer)|account number)\b/,
  /\bpay (?:for )?(?:my )(?:rent|ticket|flight|visa|bills?|fees?|hospital|medical|phone bill|train fare)\b/,
  /\bhelp (?:me )?(?:out )?(?:with )?(?:my )?(?:rent|bills|fees|hospital bill|medical bill|visa)\b/,
  // gift cards
  /\b(?:buy|send|get|pick up|grab|purchase)\b.{0,30}\b(?:gift ?cards?|itunes cards?|steam cards?|google play cards?|apple cards?|amazon (?:gift )?(?:cards?|vouchers?))\b/,
  /\b(?:gift ?cards?|itunes cards?|steam cards?|google play cards?)\b.{0,40}\b(?:codes?|scratch|photo|picture|pic|send)\b/,
  /\b(?:gift ?cards?|itunes|steam|google play|amazon|apple)\s+(?:gift\s+)?(?:cards?|vouchers?)\b.{0,40}\b(?:buy|send|get)\b/,
  // crypto and investments
  /\bdeposit (?:£|\$)?\s?\d+.{0,40}\b(?:platform|profits?|returns?|app|wallet)\b/,
  /\b(?:made|make|earn(?:ed)?)\s+(?:£|\$)\s?\d[\d,k]*.{0,30}\btrading\b|\bset up your (?:trading )?account\b/,
  /\b(?:put|invest)\b.{0,30}\b(?:money|£|\$).{0,20}\b(?:crypto|bitcoin|btc|forex|trading)\b/,
  /\b(?:bitcoin|btc|crypto|usdt|tether|ethereum|eth|binance|coinbase|forex|fx trading|nft)\b.{0,60}\b(?:invest(?:ing|ment|ed)?|profits?|returns?|earn(?:ing|ed)?|wallet|platform|double|gains?|mining|signals?|deposit)\b/,
  /\b(?:invest(?:ing|ment|ed)?|profits?|returns?|earn(?:ing|ed)?|wallet|deposit|send)\b.{0,60}\b(?:bitcoin|btc|crypto|usdt|tether|ethereum|binance|coinbase|forex)\b/,
  /\b(?:investment (?:opportunity|platform|plan|tips?|scheme)|guaranteed (?:returns?|profits?|income)|double your money|passive income|financial freedom|trading (?:platform|app|account|signals?|mentor)|get rich|risk[- ]free (?:returns?|profits?|investment))\b/,
  /\bmy (?:uncle|aunt|auntie|mentor|cousin|friend) (?:is|was|works as) (?:a |an )?(?:trader|analyst|financial expert|broker|investor)\b/,
  /\b\d+\s?% (?:returns?|profits?|a day|a week|a month|daily|weekly|monthly|guaranteed)\b/,
  /\bmake (?:money|£\s?\d+|\$\s?\d+)\s?(?:fast|quick(?:ly)?|from home|online|every (?:day|week))\b/,
  /\binvest (?:with|in) (?:me|this|my)\b/,
  // hardship stories
  /\b(?:bank )?account (?:is |has been |got |was |has got )?(?:frozen)\b|\bbank account (?:is |has been |got |was )?(?:locked|blocked|suspended|on hold)\b/,
  /\b(?:customs|clearance|verification|release|processing|transfer) (?:fee|charge)s?\b/,
  /\bstuck (?:at|in) (?:the )?(?:airport|customs|abroad)\b.{0,60}\b(?:money|pay(?:ing)?|fees?|cash|help)\b/,
  /\b(?:inheritance|oil rig|peacekeeping mission)\b|\brelease (?:the|my) (?:funds|money|payment|inheritance)\b|\bwon (?:a|the) (?:lottery|prize|jackpot)\b.{0,40}\b(?:fee|pay|claim)\b/,
];

/** Requests for money, gift cards, crypto and investment pitches, "my account is frozen" stories. */
export const detectScam = (text: string) => scamIn(foldText(text));
const SCAM_ANY = anyOf(SCAM_RULES);
const scamIn = (folded: string) => SCAM_ANY.test(folded.replace(/\s+/g, ' '));

// ---------------------------------------------------------------------------------------------
// Abuse
// ---------------------------------------------------------------------------------------------

/** Slurs from obscenity's English set: flagged wherever they appear (letter swaps, look-alikes included). */
const SLURS = new Set([
  'abo',
  'abeed',
  'africoon',
  'arabush',
  'boonga',
  'chingchong',
  'chink',
  'dyke',
  'fag',
  'kike',
  'negro',
  'nigger',
  'retard',
  'spastic',
  'tranny',
]);
const slurMatcher = new RegExpMatcher({
  ...new DataSet<{ originalWord: string }>()
    .addAll(englishDataset)
    .removePhrasesIf((p) => !SLURS.has(p.metadata?.originalWord ?? ''))
    .build(),
  ...englishRecommendedTransformers,
});

/** Slurs obscenity's English set lacks (Fancy's own list). */
const OWN_SLURS = /\b(?:paki|pakis|wog|wogs|gyppo|pikey|pikeys|coon|coons|spaz|spacker|nonce|batty boy|chav scum)\b/;
/** A strong insult alone on the line ("c u n t", "whore!"): aimed at whoever reads it. */
const BARE_INSULT =
  /^(?:you\s+|u\s+)?(?:(?:such|a|an|fucking|stupid|dumb|ugly|fat|dirty)\s+)*(?:cunt|twat|whore|slut|bitch|wanker|prick|slag|skank|bellend|dickhead)s?\W*$/;

const YOU = "(?:you|u|ya|yu|youre|you're|you are|ur|u r|u are|your|yer|you re)";
const INSULT =
  'idiot|moron|stupid|dumb|ugly|fat|loser|pathetic|worthless|disgusting|bitch|cunt|whore|slut|skank|twat|prick|dick|dickhead|wanker|tosser|bellend|knobhead|freak|creep|pig|cow|trash|scum|waste of space|psycho|thick|minger|munter|slag|hoe|bastard|arsehole|asshole|tramp|piece of shit|piece of crap|gross|vile|nobody|nothing|joke|clown|retard|sket';
const FILLER =
  '(?:like|such|a|an|so|fucking|fking|fkn|effing|bloody|total|absolute|complete|real|proper|massive|big|fat|ugly|dumb|stupid|little|lil)';
const ABUSE_RULES = [
  // insults aimed at someone
  new RegExp(`\\b${YOU}\\s+(?:(?:are|r|re|look|looks|sound|seem|is)\\s+)?(?:${FILLER}\\s+)*(?:${INSULT})s?\\b(?!\\s+(?:joke|scene|of))`),
  new RegExp(`\\b(?:${INSULT})\\s+like\\s+(?:you|u)\\b`),
  new RegExp(`\\b(?:shut up|get lost|piss off|go away|sod off|shut it),?\\s+(?:(?:you|u)\\s+)?(?:${FILLER}\\s+)*(?:${INSULT})\\b`),
  /\b(?:nobody|no one|no-one|noone)\s+(?:likes|wants|fancies|cares about)\s+(?:you|u)\b/,
  /\b(?:fuck|f\*+k|fck|fk|screw|frick)\s+(?:you|u|ya|off|yourself|urself|your|ur)\b/,
  /\bstfu\b|\bgtfo\b/,
  // threats
  /\b(?:i'?ll|i will|gonna|going to|i'?m going to|im going to|i want to|i'd|ill|i could|i should|i'?m gonna|im gonna)\s+(?:fucking\s+)?(?:kill|hurt|stab|beat|punch|smash your face|batter|rape|shoot|strangle|murder|slap|kick|deck|end|ruin|burn|destroy|find)\s+(?:you|u|ya|your (?:face|family|house)|ur)\b(?!\s+(?:a|an|the|some|one|something|at|in)\b)/,
  /\b(?:kill|hang|neck|off)\s+(?:yourself|urself|your self|ya self)\b|\bkys\b/,
  /\bi know where (?:you|u) (?:live|work|sleep)\b|\bwatch your back\b|\byou'?(?:ll| will) (?:regret|pay for) (?:it|this|that)\b|\bsleep with one eye open\b/,
  // finding someone, their home or their family; "or else" as the end of a demand
  /\b(?:i'?ll|i will|gonna|going to|i'?m going to|im going to|i'?m gonna|im gonna|i can|i could)\s+(?:find|track down|come to|turn up at|show up at)\s+(?:where (?:you|u) (?:live|work|sleep)|(?:your|ur) (?:house|home|address|door|work|family|kids|parents))\b(?!\s+(?:party|warming|on the map|for|later))/,
  /\b(?:found|know|have|got)\s+(?:your|ur)\s+(?:home\s+)?address\b|\btrack (?:you|u) down\b|\bmake (?:you|u) (?:regret|pay for) (?:it|this|that)\b|\bor else[.!?]*$/,
  /\b(?:hope|wish) (?:you|u) (?:die|get (?:raped|hit|hurt|cancer|run over|killed))\b|\b(?:you|u) (?:deserve|should|ought) (?:to )?(?:die|be (?:raped|hurt|shot|beaten|killed))\b|\bgo (?:and )?die\b/,
  // sexual remarks aimed at someone
  /\b(?:send|show|flash)\s+(?:me\s+)?(?:your\s+|ur\s+|some\s+|a\s+)?(?:nudes?|naked pics?|tits|boobs|titties|dick|cock|pussy|ass|arse|body|feet pics?)\b/,
  /\b(?:your|ur|you'?ve got|you have|nice|sexy|fit|big|juicy)\s+(?:(?:a|an|great|nice|big|lovely|fit|sexy)\s+)*(?:tits|boobs|titties|ass|arse|dick|cock|pussy|rack|booty)\b/,
  /\b(?:i'?d|i would|i want to|i wanna|wanna|want to|gonna|let me|i'?m going to|i'?ll|id|i could|love to|like to)\s+(?:fuck|shag|bang|screw|rail|grope|finger|smash|pound)\s+(?:you|u|ya|your|ur)\b/,
  /\b(?:i'?d|i would|i want to|i wanna|wanna|let me|i'?ll|i could|love to|like to)\s+(?:eat|lick|ride|suck|touch|spank|tie)\s+(?:you|u|ya)\b(?!\s+(?:a|an|the|some|to|in|at|dinner|lunch|breakfast|out)\b)/,
  /\bsuck my (?:dick|cock|balls|tits)\b|\bsit on my (?:face|dick|cock)\b|\bdick ?pics?\b|\bdown to fuck\b|\bdtf\b/,
  /\b(?:are you|r u|you|u) (?:horny|wet|hard|naked|a virgin)\b|\bwhat (?:are|r) (?:you|u) wearing\b|\bhow big (?:is|are) (?:your|ur) (?:tits|boobs|dick|cock)\b/,
  /\b(?:wanna|want to|do you want to|dya wanna) (?:fuck|shag|bang|hook up|smash)\b|\bsleep with me\b|\bin my bed\b|\bbend (?:you )?over\b/,
];

const ABUSE_ANY = anyOf(ABUSE_RULES);

/** Words members mask with stars ("f*ck", "st*pid", "b**ch"): a masked word is read as the one it fits. */
const MASKABLE = [...INSULT.split('|').filter((w) => !w.includes(' ')), 'fuck', 'shit', 'kill', 'rape', 'nudes', 'tits', 'cock', 'pussy'];
function unmask(s: string): string {
  return s.replace(/\b[a-z]*[*#]+[a-z*#]*/g, (word) => {
    const shape = new RegExp(`^${word.replace(/[*#]+/g, (m) => `[a-z]{${m.length === 1 ? '1,2' : `${m.length}`}}`)}$`);
    return MASKABLE.find((w) => shape.test(w)) ?? word;
  });
}

/** Single letters spelt out with spaces or dots ("c u n t", "f.u.c.k y.o.u"): read as one word. */
const spaced = (s: string) =>
  s
    .replace(/\b(?:[a-z][.\-_*]){2,}[a-z]\b\.?/g, (run) => run.replace(/[.\-_*]/g, ''))
    .replace(/\b(?:[a-z] ){3,}[a-z]\b/g, (run) => run.replace(/ /g, ''));

/** Slurs, harassment, threats and sexual remarks aimed at someone (not swearing on its own). */
export const detectAbuse = (text: string) => abuseIn(text, foldText(text));
function abuseIn(text: string, folded: string): boolean {
  // obscenity reads "retardant" as a slur; nothing else in its English set needed this.
  if (slurMatcher.hasMatch(text.replace(/retardant|retardation/gi, ''))) return true;
  let s = normaliseFolded(folded).replace(/([a-z])\1{2,}/g, '$1');
  s = spaced(unmask(s));
  // Stretched words ("yoouu aree sooo stuuupid") read a second time with every double letter single.
  const single = s.replace(/([a-z])\1+/g, '$1');
  if (OWN_SLURS.test(s) || BARE_INSULT.test(s)) return true;
  return ABUSE_ANY.test(s) || (single !== s && ABUSE_ANY.test(single));
}

// ---------------------------------------------------------------------------------------------

export interface LineVerdict {
  contact: boolean;
  scam: boolean;
  abuse: boolean;
}

/** Every detector on one line. */
export function checkLine(text: string, opts?: DetectOptions): LineVerdict {
  const folded = foldText(text);
  return { contact: contactIn(folded, opts), scam: scamIn(folded), abuse: abuseIn(text, folded) };
}

/** The one flag stored with a line for its receivers: abuse first (it collapses), then scam, then contact. */
export function flagOf(verdict: LineVerdict): SafetyFlag | null {
  if (verdict.abuse) return 'abuse';
  if (verdict.scam) return 'scam';
  if (verdict.contact) return 'contact';
  return null;
}
