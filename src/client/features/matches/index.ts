/** The matches feature's public surface: the shell's "It's a match!" notifier (decision 025). */
export { MatchNotifier } from './match-notifier';
