/** Summarises a V8 .cpuprofile (node --cpu-prof or the inspector): self time per function and per area. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time of one function (summed over every call site) or of one area. */
export interface SelfTime {
  name: string;
  location: string;
  selfMs: number;
  /** Share of the busy (non-idle) time, percent. */
  percent: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  busyMs: number;
  top: SelfTime[];
  areas: SelfTime[];
}

/** The compiled tree of compile.ts (`bench/.build` of the checkout). */
const BUILD_MARKER = /\/bench\/\.build\//;

function shortUrl(url: string): string {
  const build = BUILD_MARKER.exec(url);
  if (build) return url.slice(build.index + build[0].length);
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const src = url.search(/\/(src|bench)\//);
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
}

/** Where a function lives: a package, a sluice folder, Node internals, GC, native. */
function areaOf(name: string, url: string): string {
  if (name === '(garbage collector)') return 'V8 garbage collector';
  if (name === '(program)') return 'V8 (program: compiler, runtime)';
  const short = shortUrl(url);
  const pkg = /^((?:@[^/]+\/)?[^/]+)\//.exec(short);
  if (url.includes('node_modules/') && !BUILD_MARKER.test(url) && pkg) return `${pkg[1]} (package)`;
  const sluice = /^src\/([^/.]+)/.exec(short);
  if (sluice) return `sluice src/${sluice[1]}`;
  if (short.startsWith('bench/')) return 'benchmark pipeline code (bench/)';
  if (url.startsWith('node:')) return 'Node.js internals';
  return 'native / builtins';
}

/** Top `limit` functions and every area by self time, shares relative to the busy (non-idle) time. */
export function topSelfTimes(file: string, limit = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, deltas[i + 1] ?? 0));
  }
  const functions = new Map<string, SelfTime>();
  const areas = new Map<string, SelfTime>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    totalUs += us;
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idleUs += us;
      continue;
    }
    const url = node.callFrame.url;
    const line = node.callFrame.lineNumber + 1;
    const location = url ? `${shortUrl(url)}${line > 1 ? `:${line}` : ''}` : '';
    const add = (map: Map<string, SelfTime>, key: string, entry: Omit<SelfTime, 'selfMs' | 'percent'>): void => {
      const e = map.get(key) ?? { ...entry, selfMs: 0, percent: 0 };
      e.selfMs += us / 1000;
      map.set(key, e);
    };
    add(functions, `${name} ${location}`, { name, location });
    const area = areaOf(name, url);
    add(areas, area, { name: area, location: '' });
  }
  const busyMs = (totalUs - idleUs) / 1000;
  const finish = (list: SelfTime[]): SelfTime[] =>
    list.sort((a, b) => b.selfMs - a.selfMs).map((t) => ({ ...t, percent: busyMs > 0 ? (t.selfMs * 100) / busyMs : 0 }));
  return { totalMs: totalUs / 1000, idleMs: idleUs / 1000, busyMs, top: finish([...functions.values()]).slice(0, limit), areas: finish([...areas.values()]) };
}

/** The summary as Markdown: areas, then the top functions. */
export function formatSelfTimes(s: ProfileSummary): string {
  return [
    `sampled ${s.totalMs.toFixed(0)} ms: busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms (shares below are of busy time)`,
    '',
    '| area | self ms | self % |',
    '|---|--:|--:|',
    ...s.areas.map((a) => `| ${a.name} | ${a.selfMs.toFixed(0)} | ${a.percent.toFixed(1)}% |`),
    '',
    '| function | where | self ms | self % |',
    '|---|---|--:|--:|',
    ...s.top.map((t) => `| \`${t.name}\` | ${t.location} | ${t.selfMs.toFixed(0)} | ${t.percent.toFixed(1)}% |`),
  ].join('\n');
}
