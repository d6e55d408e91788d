export const LOGIN_FAILED = 'An error occurred during login. Please try again.';
