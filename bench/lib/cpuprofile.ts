/** Summarises a V8 .cpuprofile (node --cpu-prof): self time per function, top N. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time of one function (summed over every call site). */
export interface SelfTime {
  name: string;
  location: string;
  selfMs: number;
  percent: number;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const src = url.search(/\/(src|bench)\//);
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
}

/** Top `limit` functions by self time; `(idle)` and `(program)` included so the shares add up. */
export function topSelfTimes(file: string, limit = 15): { totalMs: number; top: SelfTime[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  if (profile.samples && profile.timeDeltas) {
    for (let i = 0; i < profile.samples.length; i++) {
      const id = profile.samples[i] ?? 0;
      selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0));
    }
  }
  const totals = new Map<string, SelfTime>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const name = node.callFrame.functionName || '(anonymous)';
    const location = node.callFrame.url ? `${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}` : '';
    const key = `${name} ${location}`;
    const entry = totals.get(key) ?? { name, location, selfMs: 0, percent: 0 };
    entry.selfMs += us / 1000;
    totals.set(key, entry);
    totalUs += us;
  }
  const top = [...totals.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, limit);
  for (const t of top) t.percent = totalUs > 0 ? (t.selfMs * 1000 * 100) / totalUs : 0;
  return { totalMs: totalUs / 1000, top };
}

/** The summary as a Markdown table. */
export function formatSelfTimes(summary: { totalMs: number; top: SelfTime[] }): string {
  const lines = summary.top.map((t) => `| ${t.percent.toFixed(1)}% | ${t.selfMs.toFixed(0)} | \`${t.name}\` | ${t.location} |`);
  return [`total sampled: ${summary.totalMs.toFixed(0)} ms`, '', '| self % | self ms | function | where |', '|--:|--:|---|---|', ...lines].join('\n');
}
