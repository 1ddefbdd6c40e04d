import { relative } from 'node:path';
import ts from 'typescript';
import { lineOf, type Tree } from './tree.ts';

export interface Import {
  /** The importing file, relative to the tree's root. */
  from: string;
  /** The imported file, relative to the root: a file of the repository (packages are not listed). */
  to: string;
  specifier: string;
  line: number;
  /** `import type`, `export type … from` or a `typeof import('…')` type: still an edge. */
  typeOnly: boolean;
}

/** The module specifiers of one file: static imports, re-exports, `import()` calls and import types. */
function specifiersOf(sf: ts.SourceFile): { node: ts.StringLiteralLike; typeOnly: boolean }[] {
  const found: { node: ts.StringLiteralLike; typeOnly: boolean }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteralLike(n.moduleSpecifier)) {
      found.push({ node: n.moduleSpecifier, typeOnly: n.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteralLike(n.moduleSpecifier)) {
      found.push({ node: n.moduleSpecifier, typeOnly: n.isTypeOnly });
    } else if (
      ts.isImportEqualsDeclaration(n) &&
      ts.isExternalModuleReference(n.moduleReference) &&
      ts.isStringLiteralLike(n.moduleReference.expression)
    ) {
      found.push({ node: n.moduleReference.expression, typeOnly: n.isTypeOnly });
    } else if (ts.isCallExpression(n) && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) {
      const callee = n.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(callee) && callee.text === 'require';
      if (dynamic || required) found.push({ node: n.arguments[0], typeOnly: false });
    } else if (
      ts.isImportTypeNode(n) &&
      ts.isLiteralTypeNode(n.argument) &&
      ts.isStringLiteral(n.argument.literal)
    ) {
      found.push({ node: n.argument.literal, typeOnly: true });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/**
 * Every import of the tree's files that lands on a file of the repository, resolved by the compiler
 * (relative, aliased or package-style specifiers alike). An import the compiler cannot resolve is
 * the compiler's error (tsc fails), not the check's.
 */
export function importsOf(tree: Tree): Import[] {
  const rel = (abs: string) => relative(tree.root, abs).split('\\').join('/');
  const out: Import[] = [];
  for (const [from, sf] of tree.files) {
    for (const { node, typeOnly } of specifiersOf(sf)) {
      const resolved = tree.resolve(node.text, sf.fileName);
      if (!resolved) continue;
      const to = rel(resolved);
      // Packages are not edges; any other file of the repository is (a test helper, a build output).
      if (to.startsWith('..') || to.includes('node_modules/') || to === from) continue;
      out.push({ from, to, specifier: node.text, line: lineOf(node), typeOnly });
    }
  }
  return out;
}
