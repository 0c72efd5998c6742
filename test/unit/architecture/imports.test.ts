/**
 * The shape of the code, checked: Lambda code never imports lib/ (the infra folder would be bundled into every
 * function), and the folders of lambdas/ import each other without cycles (a cycle makes every folder in it one
 * unit: nothing in it can change, load or be tested alone).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const LAMBDAS = join(ROOT, 'lambdas');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of every static import, export-from and dynamic import (type-only imports count too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
    found.push(match[1] ?? match[2]);
  }
  return found;
}

/** `payments` for lambdas/payments/core/server.ts: the top folder under lambdas/. */
function folderOf(file: string): string {
  return relative(LAMBDAS, file).split('/')[0];
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(LAMBDAS)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of importsOf(file)) {
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(LAMBDAS)) continue;
      const to = folderOf(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every elementary cycle's smallest witness: for each edge a → b, a path from b back to a. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found = new Map<string, string[]>();
  for (const [from, edges] of graph) {
    for (const to of edges) {
      const path = pathBetween(graph, to, from);
      if (path) {
        const cycle = [from, ...path];
        found.set([...new Set(cycle)].sort().join(','), cycle);
      }
    }
  }
  return [...found.values()];
}

function pathBetween(graph: Map<string, Set<string>>, start: string, goal: string): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const node = queue.shift()!;
    if (node === goal) {
      const path = [node];
      while (previous.has(path[0])) path.unshift(previous.get(path[0])!);
      return path;
    }
    for (const next of graph.get(node) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      previous.set(next, node);
      queue.push(next);
    }
  }
  return undefined;
}

describe('Code layout (docs/decisions, docs/architecture.md "Layout")', () => {
  it('Lambda code never imports lib/ (infra and the embedded runtime)', () => {
    const offenders = sourceFiles(LAMBDAS).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => resolve(dirname(file), specifier).startsWith(join(ROOT, 'lib')))
        .map((specifier) => `${relative(ROOT, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the folders of lambdas/ import each other without cycles', () => {
    expect(cycles(folderGraph()).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('the checker sees a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(graph)).toHaveLength(1);
    expect(importsOf(join(LAMBDAS, 'http', 'paid-entry.ts'))).toContain('../jobs/purchase.js');
  });
});
