// No function in src/ runs longer than a reader can hold: past FUNCTION_LINE_LIMIT lines, a
// function is split into named steps (issue 49). A function's length is counted from its first
// line to its last, the functions nested in it included (a factory's methods are its length);
// each nested function is measured on its own too. test/architecture/function-length.test.ts runs
// the check on the real tree and on a planted long function.
import ts from 'typescript';
// The sources of src/ as the catalogue checks read them: path from the root → text.
import { readSources, type Sources } from './catalogues.js';

export { readSources };

/** The longest a function of src/ may be, in lines. */
export const FUNCTION_LINE_LIMIT = 200;

export interface LongFunction {
  /** The function's name (see nameOf), which a known offender is listed under. */
  name: string;
  /** `src/…/file.ts:line`, where it starts. */
  at: string;
  lines: number;
}

/**
 * A function's name as a reader would search for it: its own, else the variable or property it is
 * assigned to, directly or through the call that wraps it (`const page = perLocale(() => …)` is
 * `page`), else `<anonymous>`.
 */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  let parent = node.parent;
  while (ts.isCallExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) {
    parent = parent.parent;
  }
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '<anonymous>';
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function of the sources longer than `limit` lines, longest first. */
export function longFunctions(sources: Sources, limit = FUNCTION_LINE_LIMIT): LongFunction[] {
  const found: LongFunction[] = [];
  for (const [path, text] of Object.entries(sources)) {
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (isFunction(node) && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > limit) found.push({ name: nameOf(node), at: `${path}:${first + 1}`, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found.sort((a, b) => b.lines - a.lines || a.at.localeCompare(b.at));
}
