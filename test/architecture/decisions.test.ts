// docs/decisions.md is an index of one file per decision (docs/decisions/NNNN-title.md), and the
// repository points at those files. Each check of scripts/architecture/decisions.ts must catch what
// it says it catches: a small planted tree passes, and each planted fault is reported; then the real
// tree must report nothing.
import { describe, expect, it } from 'vitest';
import {
  type DecisionTree,
  decisionProblems,
  readDecisionTree,
} from '../../scripts/architecture/decisions.js';

// Built from pieces so that this file itself names no section of the old log nor a missing file.
const DIR = ['decisions', ''].join('/');
const FOLDER = `docs/${DIR}`;
const OLD_LOG = `docs/${['decisions', 'md'].join('.')}`;

function record(number: string, status = 'Accepted'): string {
  return [
    `# ${number}. A title`,
    '',
    `Status: ${status}`,
    'Date: 2026-11-22',
    '',
    '## Context',
    '',
    'Why.',
    '',
    '## Decision',
    '',
    'What.',
    '',
    '## Consequences',
    '',
    'Then.',
    '',
  ].join('\n');
}

/** A tree that passes every check: two decisions, the first superseded by the second. */
function plantedTree(): DecisionTree {
  return {
    index: [
      '# Decisions',
      '',
      '## Platform',
      `- [0001](${DIR}0001-first.md) First — one (superseded by 0002)`,
      `- [0002](${DIR}0002-second.md) Second — two`,
      '',
    ].join('\n'),
    files: {
      '0001-first.md': record('0001', 'Superseded by [0002](0002-second.md)'),
      '0002-second.md': record('0002'),
    },
    sources: {
      'src/config.ts': `// ${FOLDER}0002-second.md: why the default is what it is.\n`,
      'README.md': `Our decisions are in \`${FOLDER}\`, indexed by \`${OLD_LOG}\`.\n`,
    },
  };
}

function problemsAfter(change: (tree: DecisionTree) => void): string[] {
  const tree = plantedTree();
  change(tree);
  return decisionProblems(tree);
}

describe('the decision records', () => {
  it('accept a well-formed planted tree', () => {
    expect(decisionProblems(plantedTree())).toEqual([]);
  });

  it('refuse an index of more than 100 lines', () => {
    const problems = problemsAfter((tree) => {
      tree.index += 'more\n'.repeat(100);
    });
    expect(problems).toEqual([expect.stringMatching(/^docs\/decisions\.md has \d+ lines \(at most 100\)$/)]);
  });

  it('refuse a file the index does not link, and a link with no file', () => {
    expect(
      problemsAfter((tree) => {
        tree.index = tree.index.replace(/^- \[0002\].*\n/m, '');
      }),
    ).toEqual([expect.stringContaining('0002-second.md is not linked from')]);
    expect(
      problemsAfter((tree) => {
        tree.index += `- [0003](${DIR}0003-third.md) Third — nowhere\n`;
      }),
    ).toEqual([expect.stringContaining(`links ${DIR}0003-third.md, which does not exist`)]);
  });

  it('refuse a file without its Status, Date, Context, Decision or Consequences', () => {
    for (const [part, message] of [
      ['Status: Accepted', 'no "Status:" line'],
      ['Date: 2026-11-22', 'no "Date: YYYY-MM-DD" line'],
      ['## Context', 'no "## Context" part'],
      ['## Decision', 'no "## Decision" part'],
      ['## Consequences', 'no "## Consequences" part'],
    ] as const) {
      const problems = problemsAfter((tree) => {
        tree.files['0002-second.md'] = record('0002').replace(`${part}\n`, '');
      });
      expect(problems, part).toEqual([`${FOLDER}0002-second.md: ${message}`]);
    }
    expect(
      problemsAfter((tree) => {
        tree.files['0002-second.md'] = record('0002', 'Maybe');
      }),
    ).toEqual([expect.stringContaining('the status is neither')]);
    expect(
      problemsAfter((tree) => {
        tree.files['0002-second.md'] = record('0002').replace('# 0002.', '# 0007.');
      }),
    ).toEqual([expect.stringContaining('the first line is not "# 0002. Title"')]);
  });

  it('refuse a Superseded by that points nowhere', () => {
    const problems = problemsAfter((tree) => {
      tree.files['0001-first.md'] = record('0001', 'Superseded by [0009](0009-gone.md)');
    });
    expect(problems).toEqual([`${FOLDER}0001-first.md links 0009-gone.md, which does not exist`]);
  });

  it('refuse a number used twice or a gap in the numbers', () => {
    const twice = problemsAfter((tree) => {
      tree.files['0002-again.md'] = record('0002');
      tree.index += `- [0002](${DIR}0002-again.md) Again — two\n`;
    });
    expect(twice).toEqual(['decision number 0002 is used twice']);
    const gap = problemsAfter((tree) => {
      tree.files['0004-fourth.md'] = record('0004');
      tree.index += `- [0004](${DIR}0004-fourth.md) Fourth — four\n`;
    });
    expect(gap).toEqual(['decision numbers are not consecutive: 0004 where 0003 is due']);
    const badName = problemsAfter((tree) => {
      tree.files['3-third.md'] = record('0003');
      tree.index += '- [0003](decisions/3-third.md) Third — three\n';
    });
    expect(badName).toContain('docs/decisions/3-third.md: the name is not NNNN-kebab-title.md');
  });

  it('refuse a source that names a section of the old log or links a missing decision file', () => {
    for (const line of [
      `// ${OLD_LOG}, "Wallet: payments": why.`,
      `see ${OLD_LOG} (Hardening: sign-in)`,
      `as ${OLD_LOG.slice(5)} ("Live events") says`,
    ]) {
      const problems = problemsAfter((tree) => {
        tree.sources['src/a.ts'] = `first line\n${line}\n`;
      });
      expect(problems, line).toEqual([
        'src/a.ts:2 names a section of docs/decisions.md: point at its file in docs/decisions/',
      ]);
    }
    const missing = problemsAfter((tree) => {
      tree.sources['docs/operations.md'] = `See ${FOLDER}0042-nowhere.md.\n`;
    });
    expect(missing).toEqual([`docs/operations.md:1 links ${FOLDER}0042-nowhere.md, which does not exist`]);
  });

  it('hold on the real tree', () => {
    const tree = readDecisionTree();
    expect(Object.keys(tree.files).length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(tree.sources)).toContain('src/config.ts');
    expect(decisionProblems(tree)).toEqual([]);
  });
});
