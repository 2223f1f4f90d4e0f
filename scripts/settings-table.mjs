// Prints the settings table of docs/settings.md from the built settings module (run `npm run build` first).
import { settingsTable } from '../dist/src/config/settings-table.js';

console.log(settingsTable());
