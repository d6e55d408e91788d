import { describe, expect, it } from 'vitest';
import { loadLabelledSet, ORDINARY_FLAGGED_GOAL, RECALL_GOALS, scoreDetectors } from '../../../tests/fixtures/safety/labelled';
import { checkLine, detectAbuse, detectContact, detectScam, flagOf, hasSocialHandle, linkify, linksIn } from './detect';
import { foldText } from './normalise';

describe('the labelled set', () => {
  const set = loadLabelledSet();
  const { scores, ordinary } = scoreDetectors(set);

  it('has at least 400 lines, with every kind and the traps the issue names', () => {
    expect(set.lines.length).toBeGreaterThanOrEqual(400);
    const texts = set.lines.map((l) => l.text.toLowerCase());
    for (const trap of [
      'scunthorpe',
      'i teach sex education',
      'call me ishmael',
      'my number one film',
      'the 7:30 train',
      'add me to the waitlist',
    ]) {
      expect(texts.some((t) => t.includes(trap))).toBe(true);
    }
    expect(set.lines.filter((l) => l.label === 'ordinary').length).toBeGreaterThanOrEqual(200);
  });

  for (const detector of ['contact', 'scam', 'abuse'] as const) {
    it(`${detector}: recall ≥ ${RECALL_GOALS[detector]}`, () => {
      const score = scores.find((s) => s.detector === detector);
      expect(score?.misses, `missed: ${score?.misses.join(' | ')}`).toBeDefined();
      expect(score?.recall).toBeGreaterThanOrEqual(RECALL_GOALS[detector]);
    });
  }

  it(`flags at most ${ORDINARY_FLAGGED_GOAL * 100} % of the ordinary lines`, () => {
    expect(ordinary.flaggedShare, ordinary.flagged.join(' | ')).toBeLessThanOrEqual(ORDINARY_FLAGGED_GOAL);
  });
});

describe('contact details', () => {
  it("skips linkify's scan only on lines where it finds nothing", () => {
    const links = [
      'example.com',
      'see maya.co.uk/about',
      'www.fancy.app',
      'http://x.io',
      'HTTPS://EXAMPLE.ORG',
      'ftp://files',
      '//cdn.example.net/a',
      'mailto:maya@example.com',
      'write to maya@example.com',
      'my site is bit.ly/abc',
      'xn--80ak6aa92e.com',
    ].map(foldText);
    for (const text of links) expect(linkify.match(text), text).not.toBeNull();
    // Scanned (a dot, a colon or an @), nothing found.
    const scannedOnly = ['ok see you at 7.30', 'that was great. see you', 'maya@gmail', 'пример.рф'].map(foldText);
    for (const text of scannedOnly) expect(linkify.match(text), text).toBeNull();
    const labelled = loadLabelledSet().lines.map((l) => foldText(l.text));
    for (const text of [...links, ...scannedOnly, ...labelled]) expect(linksIn(text), text).toEqual(linkify.match(text));
  });

  it('sees through spelt-out and letter-for-digit numbers', () => {
    expect(detectContact('zero seven seven zero zero nine zero zero one two three')).toBe(true);
    expect(detectContact('07 7OO 900 123')).toBe(true);
    expect(detectContact('insta dot com slash maya')).toBe(true);
  });

  it('a mention of someone in the room is not a handle; the same name with more is', () => {
    expect(hasSocialHandle('@Maya you are right', { participants: ['Maya'] })).toBe(false);
    expect(hasSocialHandle('@maya you are right', { participants: [] })).toBe(true);
    expect(hasSocialHandle('@ maya_m', { participants: ['Maya'] })).toBe(true);
  });

  it('times, prices, postcodes and waitlists are not contact details', () => {
    for (const line of ['the 7:30 train', 'tickets are £12.50', 'SW1A 1AA', 'add me to the waitlist', 'my number one film is Alien']) {
      expect(detectContact(line), line).toBe(false);
    }
  });
});

describe('scams and abuse', () => {
  it('money stories are scams, everyday money talk is not', () => {
    expect(detectScam('my bank account is frozen, can you send £200')).toBe(true);
    expect(detectScam('tickets were £45, mad')).toBe(false);
  });

  it('abuse is aimed at someone; swearing on its own is not', () => {
    expect(detectAbuse('you are a st*pid b1tch')).toBe(true);
    expect(detectAbuse('ѕhut up you lоser')).toBe(true); // Cyrillic look-alikes
    expect(detectAbuse('this is fucking brilliant')).toBe(false);
    expect(detectAbuse('Scunthorpe')).toBe(false);
  });

  it('one flag per line, abuse first', () => {
    expect(flagOf(checkLine('you idiot, text me on 07700 900123'))).toBe('abuse');
    expect(flagOf(checkLine('send £50 to my paypal maya92'))).toBe('scam');
    expect(flagOf(checkLine('hello all'))).toBeNull();
  });
});
