export * from './auth';
export * from './profiles';
export * from './social';
export * from './formation';
export * from './push';
export * from './limits';
export * from './verification';
export * from './moderation';
