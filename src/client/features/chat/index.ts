/**
 * What both chats share (issue 29): the mixer's group chat and the private conversation.
 * Other parts add entries to a line's menu through `LineActions`' `extraActions`.
 */
export { type LineAction, LineActions, type LineActionsProps } from './line-actions';
export { LiveAnnouncer } from './live-announcer';
export { type PendingLine, PendingStatus } from './pending-line';
export { ReactionChips } from './reactions';
export { ComposerBanner, ReplyQuote } from './reply-quote';
export { useDraft } from './use-draft';
export { useJumpToLine } from './use-jump-to-line';
export { applyLineChange, applyLineReaction, type LineChange } from './lines';
export { usePendingLines } from './use-pending-lines';
