/** The mixer's host in the chat (issue 29): its lines, the halfway poll and the private nudge. */
export { HostLine } from './host-line';
export { HostNudge } from './nudge';
