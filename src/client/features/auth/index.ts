/** The auth feature's public surface: other features and pages import only this file (decision 025). */
export { displayName, useAuth } from './auth-context';
