// Where e2e/single-user.setup.ts keeps the browser state (the cookie) of the link it opened; the single-user
// project of playwright.config.ts starts every spec with it.
export const SINGLE_USER_STATE = 'test-results/single-user-state.json';
