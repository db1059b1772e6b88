/**
 * Import circles inside src/ (the layer rule of eslint.config.js only sees
 * circles between layers; this sees them inside a layer and inside a folder).
 *
 *   npx tsx scripts/import-cycles.ts            every import, `import type` included (the lint rule),
 *                                               and again only the runtime ones, with no exception
 *   npx tsx scripts/import-cycles.ts --runtime  only imports that stay in the emitted JavaScript
 *
 * Exits 1 and lists each circle when there is one, except the one allowed
 * circle of the public DSL classes ({@link ALLOWED_CIRCLE}), which is listed
 * as allowed. The graph is read with the TypeScript parser (no type checking):
 * 1. every `.ts` file under src/ is a node;
 * 2. each static `import`/`export … from` with a relative specifier is an edge
 *    (`./x.js` resolves to `./x.ts`, a folder to its `index.ts`); it is
 *    type-only when the clause says `type` or every named binding does
 *    (`import { type A, type B }`): such an edge is erased by the compiler;
 * 3. strongly connected components (Tarjan) of more than one file, or a file
 *    importing itself, are the circles; inside each, the elementary cycles are
 *    listed (Johnson's algorithm, capped) so the report names every loop.
 * 4. a component whose files all lie in {@link ALLOWED_CIRCLE} is allowed
 *    (reported apart); any other file in it makes the whole component a circle.
 * `test/unit/architecture/import-cycles.test.ts` runs it and expects none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The one allowed circle: the public DSL classes, which name each other in
 * their method signatures as Kafka's interfaces do (`KStream.toTable(): KTable`,
 * `KTable.toStream(): KStream`, `KStream.groupByKey(): KGroupedStream`,
 * `KGroupedStream.windowedBy(): TimeWindowedKStream` whose aggregations
 * return a `KTable`, `KTable.groupBy(): KGroupedTable` whose aggregations
 * return a `KTable`, `Branched.withFunction((stream: KStream) => ...)` of
 * `KStream.split()`; `KGroupedStream.cogroup(): CogroupedKStream` whose
 * `cogroup(groupedStream: KGroupedStream)` names it back and whose windowed
 * forms return a `KTable`). Breaking it would change the public API (or put the
 * classes into one file). Only these files: the wiring of
 * `topology/internal/` takes and returns plain parts and imports none of
 * them, and at runtime there is no circle at all (the runtime check has no
 * exception).
 */
export const ALLOWED_CIRCLE: readonly string[] = [
  'topology/branched-kstream.ts',
  'topology/cogrouped-kstream.ts',
  'topology/cogrouped-windowed-kstream.ts',
  'topology/kgrouped-stream.ts',
  'topology/kgrouped-table.ts',
  'topology/kstream.ts',
  'topology/ktable.ts',
  'topology/windowed-kstream.ts',
];

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
  /** Each component of more than one file (or a file importing itself), files sorted; the allowed ones left out. */
  readonly components: string[][];
  /** Elementary cycles of `components`, each starting at its smallest file, at most `maxCycles` in all. */
  readonly cycles: string[][];
  /** The components left out of `components` because every file of theirs is allowed (step 4). */
  readonly allowed: string[][];
  /** Elementary cycles of `allowed` (as `cycles`, at most `maxCycles`). */
  readonly allowedCycles: string[][];
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
 * Steps 3 and 4: the circles of the graph under `root`; `runtimeOnly` leaves
 * type-only edges out; `allowed` lists the files of the allowed circle
 * (none by default: pass {@link ALLOWED_CIRCLE} for src/).
 */
export function findImportCycles(root: string, options: { runtimeOnly?: boolean; maxCycles?: number; allowed?: readonly string[] } = {}): CycleReport {
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
  const allowedFiles = new Set(options.allowed ?? []);
  const isAllowed = (component: readonly string[]): boolean => component.every((file) => allowedFiles.has(file));
  const limit = options.maxCycles ?? 1000;
  const listCycles = (of: readonly string[][]): string[][] => {
    const cycles: string[][] = [];
    for (const component of of) cycles.push(...elementaryCycles(component, adjacency, limit + 1 - cycles.length));
    return cycles;
  };
  const circles = components.filter((c) => !isAllowed(c));
  const allowed = components.filter(isAllowed);
  const cycles = listCycles(circles);
  return {
    files: files.length,
    edges: used.length,
    components: circles,
    cycles: cycles.slice(0, limit),
    truncated: cycles.length > limit,
    allowed,
    allowedCycles: listCycles(allowed).slice(0, limit),
  };
}

/** Prints one report; returns whether it found a circle that is not allowed. */
function printReport(report: CycleReport, what: string): boolean {
  console.log(`src/: ${report.files} files, ${report.edges} ${what}`);
  console.log(`${report.components.length} circle(s) (strongly connected components), ${report.cycles.length}${report.truncated ? '+' : ''} elementary cycle(s)`);
  report.components.forEach((c, i) => console.log(`  component ${i + 1} (${c.length} files): ${c.join(', ')}`));
  report.cycles.forEach((c, i) => console.log(`  ${i + 1}) ${[...c, c[0]].join(' > ')}`));
  for (const c of report.allowed) {
    console.log(`  allowed (ALLOWED_CIRCLE, the public DSL classes naming each other): ${c.join(', ')}; ${report.allowedCycles.length} elementary cycle(s)`);
  }
  return report.components.length > 0;
}

/**
 * Command line: prints the report for src/ and exits 1 when there is a
 * circle. Without `--runtime`: 1. every import, the public DSL classes'
 * circle allowed; 2. the runtime imports, with no exception (the allowed
 * circle must not hide a runtime one).
 */
function main(): void {
  const root = fileURLToPath(new URL('../src/', import.meta.url));
  const runtimeWhat = 'runtime imports (import type left out)';
  let failed: boolean;
  if (process.argv.includes('--runtime')) {
    failed = printReport(findImportCycles(root, { runtimeOnly: true }), runtimeWhat);
  } else {
    const all = printReport(findImportCycles(root, { allowed: ALLOWED_CIRCLE }), 'all imports (import type included)');
    const runtime = printReport(findImportCycles(root, { runtimeOnly: true }), runtimeWhat);
    failed = all || runtime;
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
