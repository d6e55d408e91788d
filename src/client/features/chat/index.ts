/** Chat pieces shared by mixer chat and private chat (issue 30: hide a line, mute a member). */
export {
  CollapsedLine,
  collapsedReason,
  HiddenLine,
  type LineRoom,
  linePrivacyKey,
  MutedLine,
  useHideLine,
  useLinePrivacy,
  useMuteMember,
} from './hide-mute';
