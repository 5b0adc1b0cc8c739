// src/core stays framework-free: no NestJS, Prisma, BullMQ, Redis, Passport, pino, prom-client,
// undici or pg import and no process.env read. Checked on the sources here and required of
// the ESLint configuration too, so switching the lint rule off fails this test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');
const CORE = join(ROOT, 'src/core');
const INFRA = join(ROOT, 'src/infra');
const MODULES = join(ROOT, 'src/modules');

/** The project files a source reaches through relative imports, as absolute paths (no extension). */
function relativeTargets(file: string, specifiers: string[]): string[] {
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
}

/** Rule: a core file imports nothing outside src/core. */
function coreEscapes(file: string, source: string): string[] {
  return relativeTargets(file, scan(source, file).specifiers)
    .filter((target) => !target.startsWith(CORE + '/'))
    .map((target) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
}

/** Rule: an infra file never imports src/modules. */
function infraIntoModules(file: string, source: string): string[] {
  return relativeTargets(file, scan(source, file).specifiers)
    .filter((target) => target === MODULES || target.startsWith(MODULES + '/'))
    .map((target) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
}

/** Rule: the core does no file, network or process I/O (the spec loader's reading lives in infra). */
const CORE_IO_MODULES =
  /^(node:)?(fs|fs\/promises|net|tls|http|https|http2|dgram|dns|child_process|worker_threads)$/;
// node:net's address checks (isIP) are pure; only those names may be imported from it.
const PURE_NET =
  /import\s*\{\s*(?:isIP|isIPv4|isIPv6)(?:\s*,\s*(?:isIP|isIPv4|isIPv6))*\s*\}\s*from\s*'(?:node:)?net'/g;
function coreIo(file: string, source: string): string[] {
  const found = scan(source.replace(PURE_NET, ''), file);
  return [
    ...found.specifiers
      .filter((s) => CORE_IO_MODULES.test(s))
      .map((s) => `${relative(ROOT, file)} imports ${s}`),
    ...(found.callsFetch ? [`${relative(ROOT, file)} calls fetch`] : []),
  ];
}

/** The import graph of the given files (relative imports, type-only ones included). */
function importGraph(sources: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = relativeTargets(file, scan(source, file).specifiers).map((t) =>
      existsSync(t + '.ts') || sources.has(t + '.ts') ? t + '.ts' : join(t, 'index.ts'),
    );
    graph.set(
      file,
      targets.filter((t) => sources.has(t)),
    );
  }
  return graph;
}

/** Rule: no import cycle. Each strongly connected part of the graph (Tarjan), as sorted relative paths. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v))
      cycles.push(part.map((f) => relative(ROOT, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Rule: nobody switches the boundary rules off in a file (eslint-disable of them). */
function boundaryDisabled(source: string): boolean {
  return (
    /eslint-disable[^\n]*no-restricted-(imports|properties)/.test(source) ||
    /eslint-disable(-next-line|-line)?\s*(\*\/|\n|$)/.test(source)
  );
}
const FORBIDDEN = [
  /^@nestjs\//,
  /^@prisma\//,
  /(^|\/)generated(\/|$)/,
  /^bullmq$/,
  /^ioredis$/,
  /^passport/,
  /^pino($|\/)/,
  /^prom-client$/,
  /^undici($|\/)/,
  /^pg($|\/)/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

type Found = { specifiers: string[]; readsEnv: boolean; callsFetch: boolean };

// Walks the TypeScript syntax tree, so comments and strings cannot cause false alarms.
function scan(source: string, fileName = 'x.ts'): Found {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const found: Found = { specifiers: [], readsEnv: false, callsFetch: false };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.specifiers.push(expr.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (ts.isIdentifier(callee) && callee.text === 'fetch') found.callsFetch = true;
      if (
        (isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        found.specifiers.push(node.arguments[0].text);
      }
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const target = node.expression;
      const name = ts.isPropertyAccessExpression(node)
        ? node.name.text
        : ts.isStringLiteralLike(node.argumentExpression)
          ? node.argumentExpression.text
          : null;
      if (ts.isIdentifier(target) && target.text === 'process' && name === 'env') found.readsEnv = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('architecture: the framework-free core', () => {
  const sources = files(CORE).filter((f) => !f.endsWith('.spec.ts'));

  it('has sources to check', () => {
    expect(sources.length).toBeGreaterThan(0);
  });

  it('imports no framework, driver or generated client', () => {
    const violations = sources.flatMap((file) =>
      scan(readFileSync(file, 'utf8'), file)
        .specifiers.filter(
          (spec) => FORBIDDEN.some((re) => re.test(spec)) || /\.\.\/(infra|modules)\//.test(spec),
        )
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(violations).toEqual([]);
  });

  it('never reads process.env', () => {
    const violations = sources
      .filter((file) => scan(readFileSync(file, 'utf8'), file).readsEnv)
      .map((file) => relative(ROOT, file));
    expect(violations).toEqual([]);
  });

  it('detects a violation (the checker itself works)', () => {
    const found = scan(
      "import { Injectable } from '@nestjs/common';\nconst x = require('pg');\n// process.env in a comment\nconst y = process['env'];",
    );
    expect(found.specifiers).toEqual(['@nestjs/common', 'pg']);
    expect(found.readsEnv).toBe(true);
    expect(scan("// process.env is fine in a comment\nconst s = 'process.env';").readsEnv).toBe(false);
  });

  it('is also enforced by eslint.config.mjs for src/core', () => {
    const config = readFileSync(join(ROOT, 'eslint.config.mjs'), 'utf8');
    const list = /CORE_FORBIDDEN_IMPORTS\s*=\s*\[([^\]]*)\]/.exec(config);
    expect(list).not.toBeNull();
    for (const entry of [
      '@nestjs/*',
      '@prisma/*',
      '**/generated/**',
      'bullmq',
      'ioredis',
      'passport*',
      'pino',
      'prom-client',
      'undici',
      'pg',
    ]) {
      expect(list![1]).toContain(`'${entry}'`);
    }
    const coreBlock =
      /files:\s*\[\s*'src\/core\/\*\*\/\*\.ts'\s*\][\s\S]*?rules:\s*\{([\s\S]*?)\n\s*\},\n\s*\}/.exec(config);
    expect(coreBlock).not.toBeNull();
    expect(coreBlock![1]).toMatch(/'no-restricted-imports':\s*\[\s*'error'[\s\S]*CORE_FORBIDDEN_IMPORTS/);
    expect(coreBlock![1]).toMatch(
      /'no-restricted-properties':\s*\[\s*'error'[\s\S]*object:\s*'process',\s*property:\s*'env'/,
    );
  });
});

/** String literals (and template text) of a source that contain `needle`. */
function literalsWith(source: string, needle: string, fileName = 'x.ts'): number {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      node.text.includes(needle)
    )
      count++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return count;
}

/** Rule: one home each. The files (not tests) that write the redaction marker or a token bucket's refill. */
function homesOf(sources: Map<string, string>): { marker: string[]; tokenBucket: string[] } {
  const marker: string[] = [];
  const tokenBucket: string[] = [];
  for (const [file, source] of sources) {
    if (literalsWith(source, '[REDACTED]', file) > 0) marker.push(relative(ROOT, file));
    if (/tokens\s*\+\s*[^;]*\*\s*this\.refillPerMs/.test(source)) tokenBucket.push(relative(ROOT, file));
  }
  return { marker, tokenBucket };
}

/** Value imports of a source (type-only imports left out): import, export from, require, import(). */
function valueImports(source: string, fileName = 'x.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (
        (isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      )
        out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** An identifier that reads a variable (not a property name, a declared name or a type). */
function isValueReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) || ts.isTypeQueryNode(parent) || ts.isTypeReferenceNode(parent))
    return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isParameter(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isBindingElement(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isGetAccessorDeclaration(parent)) &&
    parent.name === node
  )
    return false;
  return true;
}

/** `new X(...)` class names and calls of the global fetch (`fetch(...)`, `globalThis.fetch(...)`). */
function constructionsAndFetches(source: string, fileName = 'x.ts'): { news: string[]; fetches: number } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const news: string[] = [];
  let fetches = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee)) news.push(callee.text);
      else if (ts.isPropertyAccessExpression(callee)) news.push(callee.name.text);
    } else if (ts.isIdentifier(node) && node.text === 'fetch' && isValueReference(node)) {
      fetches++; // fetch(...), `?? fetch`, `{ fetch }`: the global fetch called or handed on
    } else if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'fetch' &&
      ts.isIdentifier(node.expression) &&
      ['globalThis', 'global', 'window', 'self'].includes(node.expression.text)
    ) {
      fetches++;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { news, fetches };
}

const REDIS_HOME = 'src/infra/redis/';
const GITEA_HTTP_HOME = 'src/infra/gitea/gitea-http-client.ts';
/** HTTP clients that are not for Gitea, and why. */
const NOT_GITEA: Record<string, string> = {
  'src/infra/oauth/cimd-fetcher.ts':
    "client metadata documents on the MCP clients' own hosts (public addresses only, its own SSRF limits)",
};

/**
 * Rules: every Redis client is made in src/infra/redis (ioredis is imported, and Redis constructed,
 * nowhere else; BullMQ only in the queue adapter), and every HTTP call to Gitea goes through the
 * one client (no global fetch anywhere in src; undici only in the client and the non-Gitea fetchers).
 */
function oneClientEach(sources: Map<string, string>): { redis: string[]; gitea: string[] } {
  const redis: string[] = [];
  const gitea: string[] = [];
  for (const [file, source] of sources) {
    const rel = relative(ROOT, file);
    const imports = valueImports(source, file);
    const { news, fetches } = constructionsAndFetches(source, file);
    if (!rel.startsWith(REDIS_HOME)) {
      if (imports.includes('ioredis')) redis.push(`${rel} imports ioredis`);
      for (const name of news.filter((n) => ['Redis', 'IORedis', 'Cluster'].includes(n)))
        redis.push(`${rel} constructs ${name}`);
    }
    if (!rel.startsWith('src/infra/queue/') && imports.includes('bullmq'))
      redis.push(`${rel} imports bullmq`);
    if (fetches > 0) gitea.push(`${rel} calls fetch`);
    if (rel !== GITEA_HTTP_HOME && !(rel in NOT_GITEA) && imports.some((s) => /^undici($|\/)/.test(s)))
      gitea.push(`${rel} imports undici`);
  }
  return { redis, gitea };
}

/** Whether an absolute path (file or import target) lies under src/infra. */
const inInfra = (path: string): boolean => path === INFRA || path.startsWith(INFRA + '/');

/** Names a file binds from elsewhere: static imports and `const { X } = await import('…')`, with their targets. */
function importedNames(file: string, tree: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  const target = (spec: string): string => (spec.startsWith('.') ? resolve(dirname(file), spec) : spec);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause) {
      const to = target(node.moduleSpecifier.text);
      const clause = node.importClause;
      if (clause.name) names.set(clause.name.text, to);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) names.set(e.name.text, to);
      else if (bindings) names.set(bindings.name.text, to);
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer) {
      const init = ts.isAwaitExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (
        ts.isCallExpression(init) &&
        init.expression.kind === ts.SyntaxKind.ImportKeyword &&
        init.arguments[0] &&
        ts.isStringLiteralLike(init.arguments[0])
      ) {
        const to = target(init.arguments[0].text);
        for (const e of node.name.elements) if (ts.isIdentifier(e.name)) names.set(e.name.text, to);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return names;
}

/** Names declared in a file as `const X = Symbol(…)` (injection tokens and other unique keys). */
function symbolDeclarations(tree: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isCallExpression(node.initializer) &&
      ts.isIdentifier(node.initializer.expression) &&
      node.initializer.expression.text === 'Symbol'
    )
      out.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return out;
}

/** Classes and functions a file declares itself (at any depth). */
function ownDeclarations(tree: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name) out.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return out;
}

/** The expressions a provider yields: useClass/useValue, a factory's returned values (or the named factory). */
function providerYields(provider: ts.ObjectLiteralExpression): ts.Expression[] {
  const out: ts.Expression[] = [];
  const returnsOf = (fn: ts.SignatureDeclaration & { body?: ts.ConciseBody }): void => {
    if (!fn.body) return;
    if (!ts.isBlock(fn.body)) {
      out.push(fn.body);
      return;
    }
    const locals = new Map<string, ts.Expression>();
    const returned: ts.Expression[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node)) return; // a nested function's returns are not the provider's
      if (ts.isReturnStatement(node) && node.expression) returned.push(node.expression);
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
        locals.set(node.name.text, node.initializer);
      ts.forEachChild(node, visit);
    };
    fn.body.statements.forEach(visit);
    // `const server = new X(…); …; return server;`: the local's initializer is what is yielded.
    for (const e of returned) {
      const bare = ts.isIdentifier(e) ? locals.get(e.text) : undefined;
      out.push(bare ?? e);
    }
  };
  for (const p of provider.properties) {
    const key = p.name && ts.isIdentifier(p.name) ? p.name.text : null;
    if (ts.isMethodDeclaration(p) && key === 'useFactory') returnsOf(p);
    if (!ts.isPropertyAssignment(p)) continue;
    if (key === 'useClass' || key === 'useValue') out.push(p.initializer);
    else if (key === 'useFactory') {
      const fn = p.initializer;
      if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) returnsOf(fn);
      else out.push(fn); // a named factory: where it comes from decides
    }
  }
  return out;
}

/** The names an expression is made by: `new C(…)` gives C, `f(…)` gives f, a bare `C` gives C. */
function makers(e: ts.Expression): string[] {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAwaitExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  if (ts.isConditionalExpression(e)) return [...makers(e.whenTrue), ...makers(e.whenFalse)];
  if (ts.isBinaryExpression(e)) return [...makers(e.left), ...makers(e.right)];
  const head = (callee: ts.Expression): string[] =>
    ts.isIdentifier(callee)
      ? [callee.text]
      : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ts.isNewExpression(e)
        ? [callee.expression.text] // new ns.C(…): the namespace's import decides
        : [];
  if (ts.isNewExpression(e) || ts.isCallExpression(e)) return head(e.expression);
  if (ts.isIdentifier(e)) return [e.text];
  return [];
}

/**
 * Rule: each adapter owns its injection token. A Nest provider (`{ provide: T, useClass | useFactory
 * | useValue }`) that yields something made by src/infra (a class or factory imported from there, or
 * defined in an infra file) is keyed by a token declared (`Symbol(…)`) in src/infra. Services made by
 * the modules or the core keep their tokens in src/modules, whatever infra objects they are handed.
 * Token names are unique in src, so a token is found by its name wherever it is re-exported.
 */
function adapterTokens(sources: Map<string, string>): {
  misplaced: string[];
  duplicates: string[];
  adapters: string[];
} {
  const trees = new Map(
    [...sources].map(([f, s]) => [f, ts.createSourceFile(f, s, ts.ScriptTarget.ES2022, true)]),
  );
  const declared = new Map<string, string[]>();
  for (const [file, tree] of trees)
    for (const name of symbolDeclarations(tree)) declared.set(name, [...(declared.get(name) ?? []), file]);
  const duplicates = [...declared]
    .filter(([, where]) => where.length > 1)
    .map(([name, where]) => `${name} declared in ${where.map((f) => relative(ROOT, f)).join(', ')}`);
  const misplaced: string[] = [];
  const adapters: string[] = [];
  for (const [file, tree] of trees) {
    const imports = importedNames(file, tree);
    const own = ownDeclarations(tree);
    const local = new Set(symbolDeclarations(tree));
    const origin = (name: string): string | null => imports.get(name) ?? (own.has(name) ? file : null);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const provide = node.properties.find(
          (p): p is ts.PropertyAssignment =>
            ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'provide',
        );
        if (provide && ts.isIdentifier(provide.initializer)) {
          const token = provide.initializer.text;
          const infraMade = providerYields(node)
            .flatMap(makers)
            .filter((name) => {
              const from = origin(name);
              return from !== null && inInfra(from);
            });
          if (infraMade.length > 0) {
            const home = local.has(token) ? file : (declared.get(token)?.[0] ?? origin(token));
            adapters.push(token);
            if (home === null || !inInfra(home))
              misplaced.push(
                `${relative(ROOT, file)}: ${token} (${home ? relative(ROOT, home) : 'undeclared'}) provides ${[...new Set(infraMade)].join(', ')} from src/infra`,
              );
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return { misplaced, duplicates, adapters: [...new Set(adapters)].sort() };
}

const BULLMQ_CLASSES: Partial<Record<string, number>> = {
  Queue: 1,
  Worker: 2,
  QueueEvents: 1,
  FlowProducer: 0,
};
const REDIS_FACTORY = join(INFRA, 'redis/redis-connections');

/**
 * Rule: BullMQ never opens its own Redis connection. Every `new Queue | Worker | QueueEvents |
 * FlowProducer` gets, as its `connection` option, an ioredis client that the file took from the one
 * factory (`const c = connections.client(…)` or `this.c = ….client(…)`, in a file importing
 * src/infra/redis/redis-connections): never connection options, a URL, or no connection at all.
 */
function bullmqConnections(sources: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of sources) {
    const tree = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
    const imports = importedNames(file, tree);
    const rel = relative(ROOT, file);
    // Local names of BullMQ's classes (aliases too) and of `import * as ns from 'bullmq'`.
    const classes = new Map<string, string>();
    const namespaces = new Set<string>();
    const visitImports = (node: ts.Node): void => {
      if (
        ts.isImportDeclaration(node) &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        node.moduleSpecifier.text === 'bullmq'
      ) {
        const bindings = node.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          for (const e of bindings.elements) classes.set(e.name.text, (e.propertyName ?? e.name).text);
        else if (bindings) namespaces.add(bindings.name.text);
      } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
        // const { Worker } = await import('bullmq') (importedNames maps such names to 'bullmq')
        for (const e of node.name.elements)
          if (ts.isIdentifier(e.name) && imports.get(e.name.text) === 'bullmq')
            classes.set(
              e.name.text,
              e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : e.name.text,
            );
      }
      ts.forEachChild(node, visitImports);
    };
    visitImports(tree);
    if (classes.size === 0 && namespaces.size === 0) continue;
    const usesFactory = [...imports.values()].includes(REDIS_FACTORY);
    // Clients taken from the factory: `const c = x.client(…)`, `this.c = x.client(…)`, `c = x.client(…)`.
    const fromFactory = new Set<string>();
    const isClientCall = (e: ts.Expression | undefined): boolean =>
      !!e &&
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      e.expression.name.text === 'client';
    const nameOf = (e: ts.Expression): string | null =>
      ts.isIdentifier(e)
        ? e.text
        : ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword
          ? `this.${e.name.text}`
          : null;
    const visitClients = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isClientCall(node.initializer))
        fromFactory.add(node.name.text);
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        isClientCall(node.right)
      ) {
        const name = nameOf(node.left);
        if (name) fromFactory.add(name);
      }
      ts.forEachChild(node, visitClients);
    };
    visitClients(tree);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        const callee = node.expression;
        const cls = ts.isIdentifier(callee)
          ? classes.get(callee.text)
          : ts.isPropertyAccessExpression(callee) &&
              ts.isIdentifier(callee.expression) &&
              namespaces.has(callee.expression.text)
            ? callee.name.text
            : undefined;
        const index = cls === undefined ? undefined : BULLMQ_CLASSES[cls];
        if (cls !== undefined && index !== undefined) {
          const where = `${rel}: new ${cls}`;
          const options = node.arguments?.[index];
          if (!usesFactory)
            out.push(`${where} in a file that does not take its clients from RedisConnections`);
          if (!options) out.push(`${where} without a connection (BullMQ would open its own)`);
          else if (!ts.isObjectLiteralExpression(options))
            out.push(`${where} with options that are not a literal`);
          else {
            const property = options.properties.find(
              (p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'connection',
            );
            const value =
              property && ts.isShorthandPropertyAssignment(property)
                ? property.name
                : property && ts.isPropertyAssignment(property)
                  ? property.initializer
                  : undefined;
            const name = value ? nameOf(value) : null;
            if (!value) out.push(`${where} without a connection (BullMQ would open its own)`);
            else if (name === null || !fromFactory.has(name))
              out.push(
                `${where} with a connection not taken from RedisConnections.client(): ${value.getText(tree)}`,
              );
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return out;
}

describe('architecture: clean edges (issue 11)', () => {
  // Specs and the fixtures they share (src/core/testing) are test code: they may read files.
  const core = files(CORE).filter((f) => !f.endsWith('.spec.ts') && !f.includes('/src/core/testing/'));
  const infra = files(INFRA);

  it('core imports nothing outside src/core (src/config included)', () => {
    expect(core.flatMap((f) => coreEscapes(f, readFileSync(f, 'utf8')))).toEqual([]);
    expect(files(CORE).flatMap((f) => coreEscapes(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('core does no file or network I/O (it takes the parsed spec; reading it is infra)', () => {
    expect(core.flatMap((f) => coreIo(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('has one home for the redaction marker and for the token bucket', () => {
    const sources = new Map(
      [...files(CORE), ...files(INFRA), ...files(MODULES)]
        .filter((f) => !f.endsWith('.spec.ts'))
        .map((f) => [f, readFileSync(f, 'utf8')]),
    );
    expect(homesOf(sources)).toEqual({
      marker: ['src/core/secrets/redaction-marker.ts'],
      tokenBucket: ['src/core/mcp/rate-limiter.ts'],
    });
    // Planted: a second marker and a second bucket are found.
    sources.set(join(INFRA, 'planted.ts'), "const M = '[REDACTED]';");
    sources.set(
      join(CORE, 'mcp/planted.ts'),
      'b.tokens = Math.min(this.capacity, b.tokens + elapsed * this.refillPerMs);',
    );
    expect(homesOf(sources)).toEqual({
      marker: ['src/core/secrets/redaction-marker.ts', 'src/infra/planted.ts'],
      tokenBucket: ['src/core/mcp/rate-limiter.ts', 'src/core/mcp/planted.ts'],
    });
  });

  it('has one home for the list of credential-issuing operations', () => {
    const sources = new Map(
      [...files(CORE), ...files(INFRA), ...files(MODULES)]
        .filter((f) => !f.endsWith('.spec.ts'))
        .map((f) => [f, readFileSync(f, 'utf8')]),
    );
    // A copy of the list: a file naming two or more of its operations in string literals.
    const names = ['userCreateToken', 'adminCreateRunnerRegistrationToken', 'userCreateOAuth2Application'];
    const copies = (all: Map<string, string>) =>
      [...all]
        .filter(([file, source]) => names.filter((n) => literalsWith(source, n, file) > 0).length >= 2)
        .map(([file]) => relative(ROOT, file));
    expect(copies(sources)).toEqual(['src/core/secrets/secret-operations.util.ts']);
    sources.set(
      join(CORE, 'executor/planted.ts'),
      "const OPS = new Set(['userCreateToken', 'adminCreateRunnerRegistrationToken']);",
    );
    expect(copies(sources)).toEqual([
      'src/core/secrets/secret-operations.util.ts',
      'src/core/executor/planted.ts',
    ]);
  });

  it('reads no tool result text back downstream of the executor (the outcome carries kind, status, details)', () => {
    // JSON.parse or a regular expression applied to a result's `.text` in the exit or the MCP layer.
    const readsBack = (source: string, file = 'x.ts'): boolean => {
      const tree = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
      let found = false;
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node)) {
          const callee = node.expression;
          const arg = node.arguments[0];
          const onText = (e: ts.Node | undefined) =>
            !!e && ts.isPropertyAccessExpression(e) && e.name.text === 'text';
          if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'parse' && onText(arg))
            found = true;
          if (ts.isPropertyAccessExpression(callee) && ['match', 'exec', 'test'].includes(callee.name.text))
            if (onText(callee.expression) || onText(arg)) found = true;
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
      return found;
    };
    const downstream = [...files(join(MODULES, 'mcp')), ...files(join(CORE, 'call'))].filter(
      (f) => !f.endsWith('.spec.ts'),
    );
    expect(
      downstream.filter((f) => readsBack(readFileSync(f, 'utf8'), f)).map((f) => relative(ROOT, f)),
    ).toEqual([]);
    expect(readsBack('const d = JSON.parse(outcome.text).error.details;')).toBe(true);
    expect(readsBack('const s = /"status":(\\d+)/.exec(result.content[0].text);')).toBe(true);
    expect(readsBack('const d = outcome.reply.details;')).toBe(false);
  });

  it('has no import cycle inside src/core', () => {
    const sources = new Map(core.map((f) => [f, readFileSync(f, 'utf8')]));
    expect(importCycles(importGraph(sources))).toEqual([]);
  });

  it('infra never imports modules (each adapter exports its own injection token)', () => {
    expect(infra.flatMap((f) => infraIntoModules(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  const srcSources = (): Map<string, string> =>
    new Map(
      files(join(ROOT, 'src'))
        .filter((f) => !f.endsWith('.spec.ts') && !f.includes('/src/generated/'))
        .map((f) => [f, readFileSync(f, 'utf8')]),
    );

  it('each adapter owns its injection token: providers of infra adapters are keyed by tokens of src/infra', () => {
    const sources = srcSources();
    const found = adapterTokens(sources);
    expect(found.misplaced).toEqual([]);
    expect(found.duplicates).toEqual([]);
    // The checker sees the providers (a checker that finds nothing would pass vacuously).
    expect(found.adapters).toEqual(
      expect.arrayContaining([
        'AUDIT_QUEUE',
        'AUDIT_REPOSITORY',
        'CIMD_FETCHER',
        'CONSOLE_SESSIONS',
        'GITEA_HTTP',
        'GITEA_OAUTH_ENDPOINT',
        'GITEA_TRANSPORT',
        'JOB_QUEUE',
        'MCP_SESSION_REVOCATIONS',
        'OAUTH_STORE',
        'ORG_POLICY_REPOSITORY',
        'POLICY_SOURCE',
        'QUOTA_COUNTER',
        'REDIS_CONNECTIONS',
        'SIGN_IN_STATES',
      ]),
    );
    // Module-level services keep their tokens in src/modules, even when handed an infra object.
    for (const token of ['ADMIN_AUDIT_SERVICE', 'CONNECTIONS_SERVICE', 'GITEA_GRANT_SERVICE', 'AUDIT_SINK'])
      expect(found.adapters).not.toContain(token);

    // Planted: a module-local token for an infra store; a token of a module token file for an
    // infra class (useClass); an infra adapter loaded by dynamic import; a duplicated token name.
    sources.set(
      join(MODULES, 'oauth/planted.module.ts'),
      [
        "import { OAuthStore } from '../../infra/oauth/oauth-store';",
        "import { ConsoleSessionStore } from '../../infra/console/console-session.store';",
        "import { PLANTED_SESSIONS } from './planted.tokens';",
        "const PLANTED_STORE = Symbol('PLANTED_STORE');",
        'const providers = [',
        '  { provide: PLANTED_STORE, inject: [PRISMA], useFactory: (p: Db) => (on ? new OAuthStore(p) : null) },',
        '  { provide: PLANTED_SESSIONS, useClass: ConsoleSessionStore },',
        '  {',
        '    provide: PLANTED_QUOTAS,',
        '    useFactory: async (redis: R) => {',
        "      const { RedisQuotaCounter } = await import('../../infra/policy/redis-quota-counter');",
        '      const counter = new RedisQuotaCounter(redis, warn);',
        '      return counter;',
        '    },',
        '  },',
        '];',
      ].join('\n'),
    );
    sources.set(
      join(MODULES, 'oauth/planted.tokens.ts'),
      "export const PLANTED_SESSIONS = Symbol('PLANTED_SESSIONS');\nexport const PLANTED_QUOTAS = Symbol('PLANTED_QUOTAS');\nexport const OAUTH_STORE = Symbol('OAUTH_STORE');",
    );
    const planted = adapterTokens(sources);
    expect(planted.misplaced).toEqual([
      'src/modules/oauth/planted.module.ts: PLANTED_STORE (src/modules/oauth/planted.module.ts) provides OAuthStore from src/infra',
      'src/modules/oauth/planted.module.ts: PLANTED_SESSIONS (src/modules/oauth/planted.tokens.ts) provides ConsoleSessionStore from src/infra',
      'src/modules/oauth/planted.module.ts: PLANTED_QUOTAS (src/modules/oauth/planted.tokens.ts) provides RedisQuotaCounter from src/infra',
    ]);
    expect(planted.duplicates).toEqual([
      'OAUTH_STORE declared in src/infra/oauth/oauth.tokens.ts, src/modules/oauth/planted.tokens.ts',
    ]);
    // Not an adapter: a module service built around an infra repository, and a method call's result.
    const service = new Map([
      [
        join(MODULES, 'policy/planted.module.ts'),
        [
          "import { AuditStatsRepository } from '../../infra/audit/audit-stats.repository';",
          "import { AdminAuditService } from './admin-audit.service';",
          "const PLANTED_SERVICE = Symbol('PLANTED_SERVICE');",
          'const p = { provide: PLANTED_SERVICE, useFactory: (db: Db) => new AdminAuditService(new AuditStatsRepository(db)) };',
          'const q = { provide: PLANTED_SERVICE, useFactory: (b: B) => b?.seam() ?? null };',
        ].join('\n'),
      ],
    ]);
    expect(adapterTokens(service)).toEqual({ misplaced: [], duplicates: [], adapters: [] });
  });

  it('BullMQ never opens its own Redis connection: each queue, worker, events and flow takes a client of RedisConnections', () => {
    const sources = srcSources();
    expect(bullmqConnections(sources)).toEqual([]);
    // The queue adapter is checked (its Queue and Worker take factory clients).
    const adapter = join(INFRA, 'queue/bullmq-queue.ts');
    const withoutFactory = sources
      .get(adapter)!
      .replace(/this\.connections\.client\(/g, 'this.connections.other(');
    expect(bullmqConnections(new Map([[adapter, withoutFactory]]))).toEqual([
      'src/infra/queue/bullmq-queue.ts: new Worker with a connection not taken from RedisConnections.client(): connection',
      'src/infra/queue/bullmq-queue.ts: new Queue with a connection not taken from RedisConnections.client(): this.producer',
    ]);
    // Planted: connection options, a URL, no connection, an own client, a namespace import, no factory import.
    const planted = new Map([
      [
        join(INFRA, 'queue/planted.ts'),
        [
          "import { Queue, Worker, QueueEvents, FlowProducer as Flows } from 'bullmq';",
          "import * as bull from 'bullmq';",
          "import { RedisConnections } from '../redis/redis-connections';",
          "const shared = connections.client('planted', 'blocking');",
          "const a = new Queue('q', { connection: { host: 'localhost', port: 6379 } });",
          "const b = new Worker('q', run, { connection: 'redis://localhost:6379/0' });",
          "const c = new QueueEvents('q');",
          'const d = new Flows({ connection: new Redis(url), prefix });',
          "const e = new bull.Queue('q', { prefix, ...rest });",
          "const f = new Worker('q', run, { connection: shared, concurrency: 2 });",
          "const g = new Queue('q', { connection: shared.duplicate() });",
        ].join('\n'),
      ],
      [
        join(INFRA, 'queue/planted-bare.ts'),
        "import { Queue } from 'bullmq';\nconst c = redis.client('x', 'command');\nconst q = new Queue('q', { connection: c });",
      ],
    ]);
    expect(bullmqConnections(planted)).toEqual([
      "src/infra/queue/planted.ts: new Queue with a connection not taken from RedisConnections.client(): { host: 'localhost', port: 6379 }",
      "src/infra/queue/planted.ts: new Worker with a connection not taken from RedisConnections.client(): 'redis://localhost:6379/0'",
      'src/infra/queue/planted.ts: new QueueEvents without a connection (BullMQ would open its own)',
      'src/infra/queue/planted.ts: new FlowProducer with a connection not taken from RedisConnections.client(): new Redis(url)',
      'src/infra/queue/planted.ts: new Queue without a connection (BullMQ would open its own)',
      'src/infra/queue/planted.ts: new Queue with a connection not taken from RedisConnections.client(): shared.duplicate()',
      'src/infra/queue/planted-bare.ts: new Queue in a file that does not take its clients from RedisConnections',
    ]);
  });

  it('no file in src/core or src/infra switches the boundary rules off', () => {
    const offenders = [...files(CORE), ...infra].filter((f) => boundaryDisabled(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('fails on a planted violation of each rule', () => {
    const coreFile = join(CORE, 'executor/planted.ts');
    expect(coreEscapes(coreFile, "import type { AppConfig } from '../../config/app-config';")).toEqual([
      'src/core/executor/planted.ts imports src/config/app-config',
    ]);
    expect(coreEscapes(coreFile, "import { x } from '../catalogue/tool-catalogue';")).toEqual([]);
    const infraFile = join(INFRA, 'queue/planted.ts');
    expect(infraIntoModules(infraFile, "import { LOGGER } from '../../modules/tokens';")).toEqual([
      'src/infra/queue/planted.ts imports src/modules/tokens',
    ]);
    expect(infraIntoModules(infraFile, "import { LOGGER } from '../logging/logging.tokens';")).toEqual([]);
    expect(boundaryDisabled("// eslint-disable-next-line no-restricted-imports\nimport pg from 'pg';")).toBe(
      true,
    );
    expect(boundaryDisabled('/* eslint-disable */')).toBe(true);
    expect(coreIo(coreFile, "import { readFileSync } from 'node:fs';\nconst r = fetch(url);")).toEqual([
      'src/core/executor/planted.ts imports node:fs',
      'src/core/executor/planted.ts calls fetch',
    ]);
    expect(coreIo(coreFile, "import { createHash } from 'node:crypto';")).toEqual([]);
    expect(coreIo(coreFile, "import { isIP } from 'node:net';")).toEqual([]);
    expect(coreIo(coreFile, "import { isIP, connect } from 'node:net';")).toEqual([
      'src/core/executor/planted.ts imports node:net',
    ]);
    // A cycle: the catalogue reaching back into the executor that builds on it (type-only counts too).
    const sources = new Map(core.map((f) => [f, readFileSync(f, 'utf8')]));
    const catalogueFile = join(CORE, 'catalogue/tool-catalogue.ts');
    sources.set(
      catalogueFile,
      `import type { ToolExecutor } from '../executor/tool-executor';\n${sources.get(catalogueFile)}`,
    );
    const [cycle, ...more] = importCycles(importGraph(sources));
    expect(more).toEqual([]);
    expect(cycle).toEqual(
      expect.arrayContaining(['src/core/catalogue/tool-catalogue.ts', 'src/core/executor/tool-executor.ts']),
    );
    expect(boundaryDisabled('// eslint-disable-next-line no-control-regex -- why')).toBe(false);
  });

  it('makes every Redis client in src/infra/redis and calls Gitea through the one HTTP client', () => {
    const sources = new Map(
      files(join(ROOT, 'src'))
        .filter((f) => !f.endsWith('.spec.ts') && !f.includes('/src/generated/'))
        .map((f) => [f, readFileSync(f, 'utf8')]),
    );
    expect(oneClientEach(sources)).toEqual({ redis: [], gitea: [] });
    // Planted: a module opening its own Redis, a module fetching from Gitea, an adapter on undici.
    sources.set(
      join(MODULES, 'mcp/planted.ts'),
      "import { Redis } from 'ioredis';\nconst r = new Redis(url);\nconst x = await fetch(`${base}/api/v1/user`);",
    );
    sources.set(join(INFRA, 'gitea/planted.ts'), "import { request } from 'undici';");
    sources.set(join(INFRA, 'policy/planted.ts'), "import type { Redis } from 'ioredis';\nlet r: Redis;");
    sources.set(
      join(MODULES, 'health/planted.ts'),
      'const f = globalThis.fetch(u);\nconst g = options.fetch ?? fetch;',
    );
    expect(oneClientEach(sources)).toEqual({
      redis: ['src/modules/mcp/planted.ts imports ioredis', 'src/modules/mcp/planted.ts constructs Redis'],
      gitea: [
        'src/modules/mcp/planted.ts calls fetch',
        'src/infra/gitea/planted.ts imports undici',
        'src/modules/health/planted.ts calls fetch',
      ],
    });
    // Type-only imports are no clients; comments and strings are no calls.
    expect(
      valueImports("import type { Redis } from 'ioredis';\nimport { type Dispatcher } from 'undici';"),
    ).toEqual([]);
    expect(constructionsAndFetches("// fetch(url)\nconst s = 'new Redis(url)';")).toEqual({
      news: [],
      fetches: 0,
    });
    expect(constructionsAndFetches('this.options.protocol.modern.fetch(request);').fetches).toBe(0);
    expect(
      constructionsAndFetches('class C { async fetch(u: string) {} }\ntype O = { fetch?: typeof fetch };')
        .fetches,
    ).toBe(0);
    expect(constructionsAndFetches('this.fetch = options.fetch ?? fetch;').fetches).toBe(1);
  });

  it('is also enforced by eslint.config.mjs (core: config, infra, modules; infra: modules)', () => {
    const config = readFileSync(join(ROOT, 'eslint.config.mjs'), 'utf8');
    const core = /CORE_FORBIDDEN_IMPORTS\s*=\s*\[([^\]]*)\]/.exec(config);
    for (const entry of ['**/config/**', '**/infra/**', '**/modules/**'])
      expect(core![1]).toContain(`'${entry}'`);
    const infraList = /INFRA_FORBIDDEN_IMPORTS\s*=\s*\[([^\]]*)\]/.exec(config);
    expect(infraList![1]).toContain("'**/modules/**'");
    expect(config).toMatch(
      /files:\s*\['src\/infra\/\*\*\/\*\.ts'\][\s\S]*?'no-restricted-imports':\s*\['error'[\s\S]*?INFRA_FORBIDDEN_IMPORTS/,
    );
  });
});
