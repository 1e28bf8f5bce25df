// A test analyst that answers through the engine's own result builder on a real score matrix, whose
// rates the test names in `teams_details` (`lambda`, `mu`): the result and the stored matrix are
// exactly what a production analysis of those rates would give.
import { marketsFrom } from '../../src/engine/markets.js';
import type { Prediction } from '../../src/engine/predict.js';
import { buildResult } from '../../src/engine/result.js';
import { encodeMatrix, scoreMatrix } from '../../src/engine/score-matrix.js';
import type { Analyst } from '../../src/types/analyst.js';

export const matrixAnalyst: Analyst = {
  modelName: 'matrix-1',
  async analyse(details, type, _signal, input) {
    const lambda = typeof details?.lambda === 'number' ? details.lambda : 1.5;
    const mu = typeof details?.mu === 'number' ? details.mu : 1.1;
    const matrix = scoreMatrix(lambda, mu, -0.05);
    const side = { attack: 0, defence: 0, matches: 40 };
    const prediction: Prediction = {
      matrix,
      markets: marketsFrom(matrix),
      known: { home: true, away: true },
      ratings: { home: side, away: side },
      stakes: { home: null, away: null },
      odds: 'none',
    };
    const team = (name: unknown) => ({ name: String(name ?? 'X'), known: true, matches: 40, form: null });
    const built = buildResult(
      type as Parameters<typeof buildResult>[0],
      prediction,
      { home: team(details?.home), away: team(details?.away), league: { name: 'E0', known: true } },
      input?.locale ?? 'fr',
    );
    return { result: { ...built.result }, aiModel: 'matrix-1', scoreMatrix: encodeMatrix(matrix) };
  },
};
