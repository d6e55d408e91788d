/** The live room around a chat (issue 29): typing, presence, mentions, read state, announcements, the composer on a phone. */
export { ChatAnnouncer } from './announcer';
export { useComposerOnScreen } from './composer-room';
export { useKeyboardSafe } from './keyboard';
export { useLiveRoomState } from './live-store';
export { type Mentionable, MentionText, useMentionPicker } from './mention-picker';
export { NewMessagesDivider, useMarkRead, useReadState } from './read-state';
export { PresenceCount, PresenceDot, TypingIndicator } from './typing-indicator';
export { useLiveRoomEvents, useTypingSender } from './use-live-room';
