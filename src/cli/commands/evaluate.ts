// `evaluate`: walk-forward evaluation of the engine on result files, beside a naive baseline and
// the bookmaker (a match's own closing odds are scored, never an input; `--prematch-odds` gives
// each match its own pre-match odds). Two ways to name the files:
// `--train <csv…> --test <csv…>`, or `--data <dir> --block validation` for the honest protocol
// (docs/engine/protocol.md: tune ≤ 2015-16, validate 2016-17..2017-18, report 2018-19..2019-20).
// Any of the three results layouts (division, extra league, results only) is read, told apart by
// its header; `--forecasts OUT.csv` writes every test match's forecast for an outside evaluation.
// Reads the CSV files directly; no database needed.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  type DetailedReport,
  type EvaluationFiles,
  evaluate,
  forecastsOf,
  type GroupScores,
  MODEL_VERSION_NAMES,
  PROTOCOL_BLOCKS,
  PROTOCOL_LEAGUES,
  type ProtocolBlock,
  plotOf,
  type Scores,
  settingsFrom,
} from '../../modules/football/evaluation.js';
import type { CliContext } from '../context.js';
import { evaluateNationalTeams, testsAreInternational } from './evaluate-international.js';
import { progressBar } from './progress.js';

const fixed = (value: number | null, digits = 4) =>
  value === null || !Number.isFinite(value) ? '—' : value.toFixed(digits);

function groupLine(name: string, scores: GroupScores, width = 10): string {
  const ci = scores.rps_ratio_ci
    ? `[${fixed(scores.rps_ratio_ci[0])}, ${fixed(scores.rps_ratio_ci[1])}]`
    : '—';
  return `${name.padEnd(width)} ${String(scores.matches).padStart(7)} ${String(scores.priced_matches).padStart(6)} ${fixed(scores.engine_rps).padStart(10)} ${fixed(scores.bookmaker_rps).padStart(10)} ${fixed(scores.rps_ratio).padStart(7)} ${ci.padStart(18)} ${fixed(scores.ou_ratio).padStart(8)}`;
}

function groupHeader(name: string, width = 10): string {
  return `${name.padEnd(width)} ${'matches'.padStart(7)} ${'priced'.padStart(6)} ${'engine RPS'.padStart(10)} ${'book. RPS'.padStart(10)} ${'ratio'.padStart(7)} ${'95 % bootstrap'.padStart(18)} ${'O/U rat.'.padStart(8)}`;
}

export function formatReport(report: DetailedReport, trainMatches: number): string[] {
  const row = (name: string, scores: Scores | null) =>
    `${name.padEnd(10)} ${fixed(scores?.rps ?? null).padStart(8)} ${fixed(scores?.logloss ?? null).padStart(9)} ${fixed(scores?.brier ?? null).padStart(8)} ${fixed(scores?.ou_logloss ?? null).padStart(14)}`;
  const priced = report.bookmaker ? '' : ' (no test match has prices)';
  const lines = [
    `Walk-forward evaluation over ${report.matches} test matches (model fitted on ${trainMatches} training matches plus every earlier test day).`,
    '',
    `${'forecast'.padEnd(10)} ${'RPS'.padStart(8)} ${'log-loss'.padStart(9)} ${'Brier'.padStart(8)} ${'O/U 2.5 l-l'.padStart(14)}`,
    row('engine', report.engine),
    row('baseline', report.baseline),
    row('bookmaker', report.bookmaker),
    '',
    report.rps_ratio_ci
      ? `RPS ratio engine / bookmaker: ${fixed(report.rps_ratio)} (95 % bootstrap ${fixed(report.rps_ratio_ci[0])}–${fixed(report.rps_ratio_ci[1])})`
      : `RPS ratio engine / bookmaker: —${priced}`,
  ];
  if (report.ou_ratio !== null && report.ou_ratio_ci) {
    lines.push(
      `O/U 2.5 log-loss ratio engine / bookmaker: ${fixed(report.ou_ratio)} (95 % bootstrap ${fixed(report.ou_ratio_ci[0])}–${fixed(report.ou_ratio_ci[1])})`,
    );
  }
  for (const [block, scores] of Object.entries(report.blocks)) {
    lines.push('', `Block ${block}`, groupHeader('league'), groupLine('all', scores));
    for (const [league, inLeague] of Object.entries(scores.leagues)) lines.push(groupLine(league, inLeague));
  }
  lines.push('', groupHeader('league'));
  for (const [league, scores] of Object.entries(report.leagues)) {
    lines.push(groupLine(league, scores as GroupScores));
  }
  lines.push('', groupHeader('season', 12));
  for (const [season, scores] of Object.entries(report.seasons)) lines.push(groupLine(season, scores, 12));
  lines.push('', groupHeader('month', 12));
  for (const [month, scores] of Object.entries(report.months_of_year))
    lines.push(groupLine(`(any) ${month}`, scores, 12));
  for (const [month, scores] of Object.entries(report.months)) lines.push(groupLine(month, scores, 12));
  return lines;
}

interface EvaluateOptions {
  train?: string[];
  test?: string[];
  data?: string;
  block?: string[];
  leagues?: string[];
  settings?: string;
  model?: string;
  json?: boolean;
  plot?: string;
  forecasts?: string;
  prematchOdds?: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('evaluate')
    .description('Walk-forward evaluation of the engine against a naive baseline and the bookmaker')
    .option('--train <files...>', 'result CSV files the model starts from')
    .option('--test <files...>', 'result CSV files predicted match day by match day')
    .option('--data <dir>', 'the protocol: a folder of <league>-<season>.csv files (see --block)')
    .option('--block <blocks...>', `protocol blocks to report: ${Object.keys(PROTOCOL_BLOCKS).join(', ')}`, [
      'validation',
    ])
    .option('--leagues <codes...>', 'protocol leagues', [...PROTOCOL_LEAGUES])
    .option(
      '--model <name>',
      `an engine version to evaluate: ${MODEL_VERSION_NAMES.join(', ')} (default: the shipped one)`,
    )
    .option('--settings <json>', 'model settings overriding the shipped ones (experiments)')
    .option(
      '--prematch-odds',
      "score the second mode: each test match's own pre-match odds as an input (never its closing odds)",
    )
    .option('--json', 'print one JSON object instead of the table')
    .option(
      '--forecasts <out.csv>',
      "write every test match's walked-forward forecast: date,competition,home_team,away_team,p_home,p_draw,p_away",
    )
    .option('--plot <file.svg>', 'write a reliability diagram and a per-season ratio chart')
    .action(async (options: EvaluateOptions) => {
      if (!options.data && (await testsAreInternational(options.test))) {
        await evaluateNationalTeams(options, ctx);
        return;
      }
      let files: EvaluationFiles;
      if (options.data) {
        files = {
          data: options.data,
          blocks: (options.block ?? []) as ProtocolBlock[],
          leagues: options.leagues,
        };
      } else {
        if (!options.train || !options.test)
          throw new Error('give --train and --test files, or --data <dir>');
        files = { train: options.train, test: options.test };
      }
      const settings = settingsFrom(options.settings, options.model);
      const bar = progressBar('evaluate');
      const evaluation = await evaluate(
        files,
        settings,
        (done, total) => {
          if (done % 50 === 0 || done === total) bar.update(done, total);
        },
        { prematchOdds: options.prematchOdds === true },
      ).finally(() => bar.stop());
      const { report } = evaluation;
      if (options.plot) await writeFile(options.plot, plotOf(evaluation));
      if (options.forecasts) await writeFile(options.forecasts, forecastsOf(evaluation));
      if (options.json) {
        ctx.out(JSON.stringify(report));
        return;
      }
      for (const file of evaluation.files) {
        if (file.skipped.length > 0) ctx.out(`${file.file}: ${file.skipped.length} rows skipped`);
      }
      ctx.out(
        options.prematchOdds
          ? "Mode: each test match's own pre-match odds as an input."
          : "Mode: without the match's own odds (past matches' odds only).",
      );
      for (const line of formatReport(report, evaluation.trainMatches)) ctx.out(line);
      if (options.plot) ctx.out(`Plot written to ${options.plot}`);
      if (options.forecasts)
        ctx.out(`Forecasts of ${evaluation.scored.length} test matches written to ${options.forecasts}`);
    });
}
