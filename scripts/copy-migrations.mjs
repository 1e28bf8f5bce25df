// The build compiles TypeScript only; the SQL migrations travel beside the compiled migrator.
import { cpSync } from 'node:fs';

cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
