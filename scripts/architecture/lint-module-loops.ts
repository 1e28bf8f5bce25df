// `npm run lint:modules` (part of `npm run lint`): fails, naming each loop and the imports behind
// it, when a module of src/ imports, directly or through other modules, a module that imports it.
import { cruiseSources } from './cruise.js';
import { describeLoop, moduleLoops } from './module-loops.js';

const loops = moduleLoops(await cruiseSources());
for (const loop of loops) console.error(describeLoop(loop));
if (loops.length > 0) {
  console.error(`\n${loops.length} module loop(s): see docs/architecture.md, "The rules" (module-loops)`);
  process.exitCode = 1;
} else {
  console.log('no module loop');
}
