// `npm run bench`: every benchmark, one after the other, each printing its figures from one run.
await import('./engine.js');
await import('./api.js');
await import('./track-record.js');
