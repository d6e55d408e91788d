/** The matches feature's public surface: the shell's "It's a match!" notifier and the celebration itself (decision 025). */
export { useMatchCelebration } from './celebration';
export { MatchNotifier } from './match-notifier';
