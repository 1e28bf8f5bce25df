// Turns result files into evaluation matches: the played match for the model, the bookmaker's
// margin-free probabilities beside it (Pinnacle closing, else the market average) for scoring only.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type EvaluationMatch, impliedProbabilities, type Probabilities3 } from '../../engine/evaluation.js';
import { parseResultsCsv, type ResultRow, type SkippedRow } from './results-csv.js';

export function toEvaluationMatch(row: ResultRow): EvaluationMatch {
  const oneXTwo = row.odds.pinnacleClosing ?? row.odds.average;
  const overUnder = row.odds.overUnderPinnacleClosing ?? row.odds.overUnderAverage;
  return {
    league: row.league,
    date: row.timestamp,
    home: row.homeTeam,
    away: row.awayTeam,
    homeGoals: row.homeGoals,
    awayGoals: row.awayGoals,
    homeShotsOnTarget: row.homeShotsOnTarget,
    awayShotsOnTarget: row.awayShotsOnTarget,
    bookmaker: oneXTwo ? impliedProbabilities<Probabilities3>([...oneXTwo]) : null,
    bookmakerOverUnder: overUnder ? impliedProbabilities<[number, number]>([...overUnder]) : null,
  };
}

export interface LoadedFile {
  file: string;
  matches: EvaluationMatch[];
  skipped: SkippedRow[];
}

export async function loadEvaluationFiles(files: readonly string[]): Promise<LoadedFile[]> {
  const loaded: LoadedFile[] = [];
  for (const file of files) {
    const parsed = parseResultsCsv(await readFile(file, 'utf8'));
    loaded.push({
      file: basename(file),
      matches: parsed.rows.map(toEvaluationMatch),
      skipped: parsed.skipped,
    });
  }
  return loaded;
}
