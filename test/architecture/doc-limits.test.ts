// The docs stay a manual: docs/performance.md holds at most 400 lines, the engine's index
// docs/engine.md 120 and each of its pages (docs/engine/*.md) 250, every page listed in the index
// (their history lives in docs/archive/), and every relative link or image in README.md, docs/*.md,
// docs/engine/*.md and docs/archive/*.md points at a file that exists. Links into docs/decisions/ are left to that
// folder's own check. Each check is shown failing on a planted bad input, in memory and on disk.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The longest each doc may be, in lines. */
const LINE_LIMITS: Record<string, number> = {
  'docs/performance.md': 400,
  'docs/engine.md': 120,
};

/** The longest an engine page may be: a topic a reader holds at once, with room for this wave's additions. */
const ENGINE_PAGE_LIMIT = 250;

/** The fixed limits, and each engine page's. */
function limitsOf(docs: Doc[]): Record<string, number> {
  const pages = docs.filter((doc) => doc.path.startsWith('docs/engine/'));
  return { ...LINE_LIMITS, ...Object.fromEntries(pages.map((doc) => [doc.path, ENGINE_PAGE_LIMIT])) };
}

/** One message per engine page the index (docs/engine.md) does not link to. */
function unlistedPages(docs: Doc[]): string[] {
  const index = docs.find((doc) => doc.path === 'docs/engine.md');
  const listed = new Set(
    index ? linkTargets(index.text).map((target) => `docs/${target.replace(/#.*$/, '')}`) : [],
  );
  return docs
    .filter((doc) => doc.path.startsWith('docs/engine/') && !listed.has(doc.path))
    .map((doc) => `${doc.path}: not listed in docs/engine.md`);
}

interface Doc {
  /** Relative to the repository's root, with forward slashes. */
  path: string;
  text: string;
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** One message per doc longer than its limit; a limited doc that is missing is one too. */
function overLimits(docs: Doc[], limits: Record<string, number>): string[] {
  return Object.entries(limits).flatMap(([path, limit]) => {
    const doc = docs.find((d) => d.path === path);
    if (!doc) return [`${path}: missing`];
    const lines = lineCount(doc.text);
    return lines > limit ? [`${path}: ${lines} lines, at most ${limit}`] : [];
  });
}

/** The relative link targets of a Markdown text, outside code: inline links, images, definitions. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? ''),
  ];
  return targets.filter((t) => t !== '' && !t.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/**
 * One message per relative link whose file does not exist, `exists` asked with the path relative
 * to the root. Links into docs/decisions/ are skipped.
 */
function brokenLinks(docs: Doc[], exists: (path: string) => boolean): string[] {
  return docs.flatMap((doc) =>
    linkTargets(doc.text).flatMap((target) => {
      const file = decodeURI(target.replace(/[#?].*$/, ''));
      if (file === '') return [];
      const path = join(dirname(doc.path), file).split('\\').join('/');
      if (path === 'docs/decisions' || path.startsWith('docs/decisions/')) return [];
      if (path.startsWith('..') || !exists(path)) return [`${doc.path}: ${target} (no such file)`];
      return [];
    }),
  );
}

/** README.md, docs/*.md, docs/engine/*.md and docs/archive/*.md under `root`. */
async function readDocs(root: string): Promise<Doc[]> {
  const inFolder = async (folder: string) =>
    (await readdir(join(root, folder)).catch(() => []))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${folder}/${name}`);
  const paths = [
    'README.md',
    ...(await inFolder('docs')),
    ...(await inFolder('docs/engine')),
    ...(await inFolder('docs/archive')),
  ].sort();
  return Promise.all(
    paths
      .filter((path) => existsSync(join(root, path)))
      .map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8') })),
  );
}

/** Every check over the docs under `root`. */
async function docProblems(root: string): Promise<string[]> {
  const docs = await readDocs(root);
  return [
    ...overLimits(docs, limitsOf(docs)),
    ...unlistedPages(docs),
    ...brokenLinks(docs, (path) => existsSync(resolve(root, path))),
  ];
}

describe('the docs', () => {
  it('keep docs/performance.md within 400 lines, the engine index within 120 and its pages within 250, every page listed, and every relative link whole', async () => {
    expect(await docProblems(ROOT)).toEqual([]);
  });

  it('read the links of a Markdown text, leaving code, anchors and URLs out', () => {
    const text = [
      'See [the plan](performance.md#capacity-plan) and ![a plot](img/a.svg "title").',
      '[a site](https://example.com), [an anchor](#top), [mail](mailto:a@b.c), `[code](x.md)`',
      '```',
      '[in a block](block.md)',
      '```',
      '[ref]: archive/history.md',
    ].join('\n');
    expect(linkTargets(text)).toEqual(['performance.md#capacity-plan', 'img/a.svg', 'archive/history.md']);
  });

  it('fail on a planted doc too long, in memory', () => {
    const long = { path: 'docs/performance.md', text: 'line\n'.repeat(401) };
    const short = { path: 'docs/engine.md', text: 'line\n'.repeat(120) };
    expect(overLimits([long, short], LINE_LIMITS)).toEqual(['docs/performance.md: 401 lines, at most 400']);
    expect(overLimits([{ ...long, text: 'line\n'.repeat(400) }, short], LINE_LIMITS)).toEqual([]);
    expect(
      overLimits(
        [
          { path: 'docs/performance.md', text: '' },
          { ...short, text: 'x\n'.repeat(121) },
        ],
        LINE_LIMITS,
      ),
    ).toEqual(['docs/engine.md: 121 lines, at most 120']);
  });

  it('fail on a planted engine page too long, or missing from the index, in memory', () => {
    const index = { path: 'docs/engine.md', text: '[The model](engine/model.md)\n' };
    const page = { path: 'docs/engine/model.md', text: 'line\n'.repeat(ENGINE_PAGE_LIMIT) };
    const stray = { path: 'docs/engine/stray.md', text: 'line\n' };
    expect(overLimits([index, page], limitsOf([index, page]))).toEqual(['docs/performance.md: missing']);
    const long = { ...page, text: 'line\n'.repeat(ENGINE_PAGE_LIMIT + 1) };
    expect(overLimits([index, long], limitsOf([index, long]))).toContain(
      `docs/engine/model.md: ${ENGINE_PAGE_LIMIT + 1} lines, at most ${ENGINE_PAGE_LIMIT}`,
    );
    expect(unlistedPages([index, page])).toEqual([]);
    expect(unlistedPages([index, page, stray])).toEqual([
      'docs/engine/stray.md: not listed in docs/engine.md',
    ]);
  });

  it('fail on a planted broken link, in memory, but not on one into docs/decisions/', () => {
    const files = new Set(['docs/img/a.svg', 'docs/performance.md', 'README.md']);
    const exists = (path: string) => files.has(path);
    const docs = [
      { path: 'README.md', text: '[perf](docs/performance.md), [gone](docs/gone.md)' },
      {
        path: 'docs/engine.md',
        text: '![plot](img/a.svg) ![lost](img/lost.svg) [a decision](decisions/0001.md)',
      },
      {
        path: 'docs/archive/history.md',
        text: '![plot](../img/a.svg) [up](../../outside.md) [perf](performance.md)',
      },
    ];
    expect(brokenLinks(docs, exists)).toEqual([
      'README.md: docs/gone.md (no such file)',
      'docs/engine.md: img/lost.svg (no such file)',
      'docs/archive/history.md: ../../outside.md (no such file)',
      'docs/archive/history.md: performance.md (no such file)',
    ]);
  });

  it('fail on planted bad docs on disk', async () => {
    const root = await mkdtemp(join(tmpdir(), 'doc-limits-'));
    try {
      await mkdir(join(root, 'docs/archive'), { recursive: true });
      await writeFile(join(root, 'README.md'), '[perf](docs/performance.md)\n');
      await writeFile(join(root, 'docs/performance.md'), 'x\n'.repeat(400));
      await writeFile(join(root, 'docs/engine.md'), '[old](archive/engine-history.md)\n');
      await writeFile(join(root, 'docs/archive/engine-history.md'), '![plot](../img/plot.svg)\n');
      expect(await docProblems(root)).toEqual([
        'docs/archive/engine-history.md: ../img/plot.svg (no such file)',
      ]);

      await mkdir(join(root, 'docs/img'));
      await writeFile(join(root, 'docs/img/plot.svg'), '<svg/>');
      expect(await docProblems(root)).toEqual([]);

      await writeFile(join(root, 'docs/performance.md'), 'x\n'.repeat(401));
      await writeFile(join(root, 'docs/engine.md'), `${'x\n'.repeat(121)}[old](archive/moved.md)\n`);
      expect(await docProblems(root)).toEqual([
        'docs/performance.md: 401 lines, at most 400',
        'docs/engine.md: 122 lines, at most 120',
        'docs/engine.md: archive/moved.md (no such file)',
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
