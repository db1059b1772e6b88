/**
 * Import circles inside src/ (the layer rule of eslint.config.js only sees
 * circles between layers; this sees them inside a layer and inside a folder).
 *
 *   npx tsx scripts/import-cycles.ts            every import, `import type` included (the lint rule),
 *                                               and again only the runtime ones, with no exception
 *   npx tsx scripts/import-cycles.ts --runtime  only imports that stay in the emitted JavaScript
 *
 * Exits 1 and lists each circle when there is one; there is no exception
 * (the public DSL types, which name each other, are interfaces in one
 * module, topology/dsl-interfaces.ts). The graph is read with the
 * TypeScript parser (no type checking):
 * 1. every `.ts` file under src/ is a node;
 * 2. each static `import`/`export … from` with a relative specifier is an edge
 *    (`./x.js` resolves to `./x.ts`, a folder to its `index.ts`); it is
 *    type-only when the clause says `type` or every named binding does
 *    (`import { type A, type B }`): such an edge is erased by the compiler;
 * 3. strongly connected components (Tarjan) of more than one file, or a file
 *    importing itself, are the circles; inside each, the elementary cycles are
 *    listed (Johnson's algorithm, capped) so the report names every loop.
 * `test/unit/architecture/import-cycles.test.ts` runs it and expects none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** One import edge between two files under the scanned root. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** Erased by the compiler (`import type`, or only `type` bindings). */
  readonly typeOnly: boolean;
}

/** The circles found: the strongly connected components and the elementary cycles inside them. */
export interface CycleReport {
  readonly files: number;
  readonly edges: number;
  /** Each component of more than one file (or a file importing itself), files sorted. */
  readonly components: string[][];
  /** Elementary cycles of `components`, each starting at its smallest file, at most `maxCycles` in all. */
  readonly cycles: string[][];
  /** More cycles exist than were listed. */
  readonly truncated: boolean;
}

/** Every `.ts` file under `dir` (relative paths, `/` separators, sorted). */
function tsFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(root, path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(root, path).split('\\').join('/'));
  }
  return out.sort();
}

/** The `.ts` file a relative specifier names, or undefined (outside the root, or not a source file). */
function resolveSpecifier(root: string, fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
  const hit = candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
  if (hit === undefined) return undefined;
  const rel = relative(root, hit).split('\\').join('/');
  return rel.startsWith('..') ? undefined : rel;
}

/** Whether an import or export declaration is erased by the compiler (step 2 of the module comment). */
function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause === undefined) return false; // `import './x.js'` runs the module
    if (clause.isTypeOnly) return true;
    if (clause.name !== undefined) return false;
    const bindings = clause.namedBindings;
    return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (statement.isTypeOnly) return true;
  const clause = statement.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** Steps 1 and 2: the files under `root` and their import edges. */
export function importGraph(root: string): { files: string[]; edges: ImportEdge[] } {
  const files = tsFiles(root);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const source = ts.createSourceFile(from, readFileSync(join(root, from), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
      const to = resolveSpecifier(root, from, specifier.text);
      if (to !== undefined) edges.push({ from, to, typeOnly: isTypeOnly(statement) });
    }
  }
  return { files, edges };
}

/** Tarjan's strongly connected components of `adjacency` (iterative, so deep graphs do not overflow the stack). */
function stronglyConnected(nodes: readonly string[], adjacency: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const targets = adjacency.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** Elementary cycles inside one component (Johnson's algorithm, simple recursive form), at most `limit`. */
function elementaryCycles(component: readonly string[], adjacency: ReadonlyMap<string, readonly string[]>, limit: number): string[][] {
  const members = new Set(component);
  const cycles: string[][] = [];
  const ordered = [...component].sort();
  for (let i = 0; i < ordered.length && cycles.length < limit; i++) {
    const start = ordered[i] as string;
    const allowed = new Set(ordered.slice(i));
    const blocked = new Set<string>();
    const blockMap = new Map<string, Set<string>>();
    const path: string[] = [];
    const unblock = (node: string): void => {
      blocked.delete(node);
      for (const other of blockMap.get(node) ?? []) if (blocked.has(other)) unblock(other);
      blockMap.delete(node);
    };
    const circuit = (node: string): boolean => {
      let found = false;
      path.push(node);
      blocked.add(node);
      for (const next of adjacency.get(node) ?? []) {
        if (!members.has(next) || !allowed.has(next) || cycles.length >= limit) continue;
        if (next === start) {
          cycles.push([...path]);
          found = true;
        } else if (!blocked.has(next) && circuit(next)) {
          found = true;
        }
      }
      if (found) unblock(node);
      else for (const next of adjacency.get(node) ?? []) if (allowed.has(next)) (blockMap.get(next) ?? blockMap.set(next, new Set()).get(next))?.add(node);
      path.pop();
      return found;
    };
    circuit(start);
  }
  return cycles;
}

/**
 * Step 3: the circles of the graph under `root`; `runtimeOnly` leaves
 * type-only edges out.
 */
export function findImportCycles(root: string, options: { runtimeOnly?: boolean; maxCycles?: number } = {}): CycleReport {
  const { files, edges } = importGraph(root);
  const used = options.runtimeOnly === true ? edges.filter((e) => !e.typeOnly) : edges;
  const adjacency = new Map<string, string[]>();
  for (const e of used) {
    const targets = adjacency.get(e.from) ?? [];
    if (!targets.includes(e.to)) targets.push(e.to);
    adjacency.set(e.from, targets);
  }
  for (const targets of adjacency.values()) targets.sort();
  const components = stronglyConnected(files, adjacency).filter((c) => c.length > 1 || (adjacency.get(c[0] as string) ?? []).includes(c[0] as string));
  components.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
  const limit = options.maxCycles ?? 1000;
  const cycles: string[][] = [];
  for (const component of components) cycles.push(...elementaryCycles(component, adjacency, limit + 1 - cycles.length));
  return { files: files.length, edges: used.length, components, cycles: cycles.slice(0, limit), truncated: cycles.length > limit };
}

/** Prints one report; returns whether it found a circle. */
function printReport(report: CycleReport, what: string): boolean {
  console.log(`src/: ${report.files} files, ${report.edges} ${what}`);
  console.log(`${report.components.length} circle(s) (strongly connected components), ${report.cycles.length}${report.truncated ? '+' : ''} elementary cycle(s)`);
  report.components.forEach((c, i) => console.log(`  component ${i + 1} (${c.length} files): ${c.join(', ')}`));
  report.cycles.forEach((c, i) => console.log(`  ${i + 1}) ${[...c, c[0]].join(' > ')}`));
  return report.components.length > 0;
}

/**
 * Command line: prints the report for src/ and exits 1 when there is a
 * circle. Without `--runtime`: 1. every import; 2. the runtime imports
 * only (the same graph less the type-only edges, reported apart).
 */
function main(): void {
  const root = fileURLToPath(new URL('../src/', import.meta.url));
  const runtimeWhat = 'runtime imports (import type left out)';
  let failed: boolean;
  if (process.argv.includes('--runtime')) {
    failed = printReport(findImportCycles(root, { runtimeOnly: true }), runtimeWhat);
  } else {
    const all = printReport(findImportCycles(root), 'all imports (import type included)');
    const runtime = printReport(findImportCycles(root, { runtimeOnly: true }), runtimeWhat);
    failed = all || runtime;
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
