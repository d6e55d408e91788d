/** The mixers feature's public surface (decision 025): home's mixer cards and prompts, and the mixer time and theme helpers. */
export { openPromptsQuery } from './after-mixer-api';
export { AfterMixerPrompts } from './components/after-mixer-prompts';
export { dayLabel, formatTime, inSentence } from './format';
export { nextMixersQuery, YourNextMixers } from './next-mixers';
export { themeOf } from './themes';
