// The console's screens are paths under /admin/ (clients/web/router.ts, shared with the web app).
import { pathRouter } from '../../clients/web/router.js';

export const { navigate, usePath, follow } = pathRouter('/admin');
