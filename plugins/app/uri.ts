// The home app's address, for the tools whose results it shows (their `ui.resourceUri`).
export const APP_URI = 'ui://home/app';
/** What a tool says to link its result to the home app. */
export const homeApp = { resourceUri: APP_URI } as const;
