/**
 * Cycles in a directed graph, one per strongly connected component, each shown as one concrete
 * path `a -> b -> … -> a` (and the rest of its component).
 */
export function cyclesOf(pairs: { from: string; to: string }[]): string[] {
  const edges = new Map<string, string[]>();
  for (const p of pairs) edges.set(p.from, [...new Set([...(edges.get(p.from) ?? []), p.to])]);
  // Tarjan's strongly connected components, iteratively (no recursion limit on deep graphs).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; i: number };
      const outs = edges.get(top.node) ?? [];
      if (top.i < outs.length) {
        const to = outs[top.i++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        for (;;) {
          const n = stack.pop() as string;
          onStack.delete(n);
          component.push(n);
          if (n === top.node) break;
        }
        const selfLoop = (edges.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((c) => {
    const path = cyclePath(c, edges);
    const rest = c.filter((f) => !path.includes(f)).sort();
    return rest.length === 0 ? path : `${path} (and through it: ${rest.join(', ')})`;
  });
}

/** One concrete cycle through a component: breadth-first from its first file back to itself. */
function cyclePath(component: string[], edges: Map<string, string[]>): string {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift() as string;
    for (const to of edges.get(n) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [n];
        while (path[0] !== start) path.unshift(prev.get(path[0] as string) as string);
        return [...path, start].join(' -> ');
      }
      if (!prev.has(to)) {
        prev.set(to, n);
        queue.push(to);
      }
    }
  }
  return component.join(' -> ');
}
