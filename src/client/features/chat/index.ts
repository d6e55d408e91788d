/**
 * What both chats share (issue 29): the mixer's group chat and the private conversation.
 * Other parts add entries to a line's menu through `LineActions`' `extraActions`.
 */
export { type LineAction, LineActions } from './line-actions';
export { LiveAnnouncer } from './live-announcer';
export { SkipToComposer } from './skip-to-composer';
export { type PendingLine, PendingStatus } from './pending-line';
export { ReactionChips } from './reactions';
export { ComposerBanner, ReplyQuote } from './reply-quote';
export { useDraft } from './use-draft';
export { useJumpToLine } from './use-jump-to-line';
export { useLineWindow } from './line-window';
export { applyLineChange, applyLineReaction } from './lines';
export { usePendingLines } from './use-pending-lines';
/** The live room around a chat (issue 29): typing, presence, mentions, read state, announcements, the composer on a phone. */
export { useComposerOnScreen } from './composer-room';
export { useKeyboardSafe } from './keyboard';
export { usePinnedToBottom } from './pinned-to-bottom';
export { useLiveRoomState } from './live-store';
export { type Mentionable, MentionText, useMentionPicker } from './mention-picker';
export { NewMessagesDivider, useMarkRead, useReadState } from './read-state';
export { PresenceCount, PresenceDot, TypingIndicator } from './typing-indicator';
export { useLiveRoomEvents, useTypingSender } from './use-live-room';
/** Chat pieces shared by mixer chat and private chat (issue 30: hide a line, mute a member). */
export { CollapsedLine, useHideLine, useLinePrivacy, useMuteMember } from './hide-mute';
/** Whether a line shows collapsed, and why: for the line and for the screen-reader announcer alike (issues 29, 30). */
export { announcementOf, type CollapsedReason, collapsedReason, NO_PRIVACY, quoteFolded } from './collapsed';
/** The chat feature's public surface: the report dialog for a line (issue 30), shared by mixer and private chats. */
export { useReportLine } from './report-line-dialog';
