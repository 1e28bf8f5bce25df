// The build compiles TypeScript only; the SQL migrations travel beside the compiled migrator, and
// the static assets (the default avatar) beside the routes that serve them.
import { cpSync } from 'node:fs';

cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
cpSync('src/assets', 'dist/assets', { recursive: true });
