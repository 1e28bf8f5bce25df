// `evaluate --train <csv…> --test <csv…> [--json]`: walk-forward evaluation of the engine on
// result files, beside a naive baseline and the bookmaker (odds are scored, never learned from).
// Reads the CSV files directly; no database needed.
import type { Command } from 'commander';
import { type EvaluationReport, evaluate, type Scores } from '../../engine/evaluation.js';
import { loadEvaluationFiles } from '../../modules/football/evaluation-data.js';
import type { CliContext } from '../context.js';
import { progressBar } from './progress.js';

const fixed = (value: number | null, digits = 4) => (value === null ? '—' : value.toFixed(digits));

export function formatReport(report: EvaluationReport, trainMatches: number): string[] {
  const row = (name: string, scores: Scores) =>
    `${name.padEnd(10)} ${fixed(scores.rps).padStart(8)} ${fixed(scores.logloss).padStart(9)} ${fixed(scores.brier).padStart(8)} ${fixed(scores.ou_logloss).padStart(14)}`;
  const lines = [
    `Walk-forward evaluation over ${report.matches} test matches (model fitted on ${trainMatches} training matches plus every earlier test day).`,
    '',
    `${'forecast'.padEnd(10)} ${'RPS'.padStart(8)} ${'log-loss'.padStart(9)} ${'Brier'.padStart(8)} ${'O/U 2.5 l-l'.padStart(14)}`,
    row('engine', report.engine),
    row('baseline', report.baseline),
    row('bookmaker', report.bookmaker),
    '',
    `RPS ratio engine / bookmaker: ${fixed(report.rps_ratio)}`,
  ];
  if (report.engine.ou_logloss !== null && report.bookmaker.ou_logloss !== null) {
    lines.push(
      `O/U 2.5 log-loss ratio engine / bookmaker: ${fixed(report.engine.ou_logloss / report.bookmaker.ou_logloss)}`,
    );
  }
  lines.push(
    '',
    `${'league'.padEnd(8)} ${'matches'.padStart(7)} ${'engine RPS'.padStart(11)} ${'bookmaker RPS'.padStart(14)} ${'ratio'.padStart(7)}`,
  );
  for (const [league, scores] of Object.entries(report.leagues)) {
    lines.push(
      `${league.padEnd(8)} ${String(scores.matches).padStart(7)} ${fixed(scores.engine_rps).padStart(11)} ${fixed(scores.bookmaker_rps).padStart(14)} ${fixed(scores.rps_ratio).padStart(7)}`,
    );
  }
  return lines;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('evaluate')
    .description('Walk-forward evaluation of the engine against a naive baseline and the bookmaker')
    .requiredOption('--train <files...>', 'result CSV files the model starts from')
    .requiredOption('--test <files...>', 'result CSV files predicted match day by match day')
    .option('--json', 'print one JSON object instead of the table')
    .action(async (options: { train: string[]; test: string[]; json?: boolean }) => {
      const train = await loadEvaluationFiles(options.train);
      const test = await loadEvaluationFiles(options.test);
      const trainMatches = train.flatMap((file) => file.matches);
      const testMatches = test.flatMap((file) => file.matches);
      if (testMatches.length === 0) throw new Error('no test match could be read');
      const bar = progressBar('evaluate');
      let report: EvaluationReport;
      try {
        report = evaluate(trainMatches, testMatches, undefined, (done, total) => {
          if (done % 50 === 0 || done === total) bar.update(done, total);
        });
      } finally {
        bar.stop();
      }
      if (options.json) {
        ctx.out(JSON.stringify(report));
        return;
      }
      for (const file of [...train, ...test]) {
        if (file.skipped.length > 0) ctx.out(`${file.file}: ${file.skipped.length} rows skipped`);
      }
      for (const line of formatReport(report, trainMatches.length)) ctx.out(line);
    });
}
