// The over/under log-loss ratio of two engine versions on the same matches, with a paired
// bootstrap interval of the difference (the CLI's intervals are each version's alone). Runs the
// CLI's own evaluation twice.
//
//   nice -n 10 npx tsx scripts/engine/paired-ou.ts ../shared/data/football validation dixon-coles-4 dixon-coles-5
import { logLoss, type ScoredMatch } from '../../src/engine/evaluation.js';
import { MODEL_VERSIONS } from '../../src/engine/model.js';
import { seededRandom } from '../../src/engine/random.js';
import { evaluate } from '../../src/modules/football/evaluation.js';
import type { ProtocolBlock } from '../../src/modules/football/evaluation-data.js';

const [dir, block, before, after] = process.argv.slice(2);
if (!dir || !block || !before || !after)
  throw new Error('usage: paired-ou.ts <data dir> <block> <version> <version>');
const settingsOf = (name: string) => {
  const settings = MODEL_VERSIONS[name];
  if (!settings) throw new Error(`unknown version ${name}`);
  return settings;
};
const files = { data: dir, blocks: [block as ProtocolBlock] };
const a = (await evaluate(files, settingsOf(before))).scored;
const b = (await evaluate(files, settingsOf(after))).scored;
const loss = (match: ScoredMatch, source: 'engine' | 'bookmaker') =>
  logLoss(match.overUnder![source], match.overUnder!.over ? 0 : 1);
const pairs = a.map((match, i) => [match, b[i]!] as const).filter(([match]) => match.overUnder);
const difference = (picks: readonly number[]) => {
  let first = 0;
  let second = 0;
  let market = 0;
  for (const i of picks) {
    const [x, y] = pairs[i]!;
    first += loss(x, 'engine');
    second += loss(y, 'engine');
    market += loss(x, 'bookmaker');
  }
  return (second - first) / market;
};
const random = seededRandom(20_240_601);
const draws = Array.from({ length: 1000 }, () =>
  difference(pairs.map(() => Math.floor(random() * pairs.length))),
).sort((x, y) => x - y);
console.log(
  `${block}, ${pairs.length} matches: O/U ratio ${after} − ${before} = ${difference(pairs.map((_, i) => i)).toFixed(4)} ` +
    `(95 % paired bootstrap ${draws[25]!.toFixed(4)} to ${draws[974]!.toFixed(4)})`,
);
