// `npm run docs:module-map`: regenerates docs/module-map.md from dependency-cruiser's view of src/.
import { writeFile } from 'node:fs/promises';
import { generateModuleMap, MODULE_MAP_FILE } from './map.js';

await writeFile(MODULE_MAP_FILE, await generateModuleMap());
console.log(`module map written to ${MODULE_MAP_FILE}`);
