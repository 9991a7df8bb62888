import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * postgres.js keeps its pool's connections in queues (src/queue.js). Unpatched, a queue that is
 * never empty when shifted, as the pool's idle connections are under load, grows by one spent slot
 * per shift and every `remove` scans them all: a measurable part of a small call's CPU (issue 27).
 * patches/postgres@3.4.9.patch compacts it; these hold the queue to what the pool relies on.
 */
interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
const require = createRequire(import.meta.url);
const Queue = require(path.join(path.dirname(require.resolve("postgres")), "queue.js")) as <T>(
  initial?: T[],
) => Queue<T>;

describe("postgres.js connection queue (patched)", () => {
  it("stays first in, first out while it is never emptied, across many compactions", () => {
    const queue = Queue<number>([0, 1, 2]);
    let next = 3;
    for (let i = 0; i < 10_000; i++) {
      expect(queue.shift()).toBe(i);
      queue.push(next++);
      expect(queue.length).toBe(3);
    }
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([10_000, 10_001, 10_002, undefined]);
    expect(queue.length).toBe(0);
  });

  it("removes a waiting item wherever it is, and only one that is waiting", () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ i }));
    const queue = Queue(items.slice(0, 50));
    for (let i = 0; i < 40; i++) queue.shift();
    for (const item of items.slice(50)) queue.push(item);
    // Shifted ones are gone; a waiting one is removed once.
    expect(queue.remove(items[10] as { i: number })).toBeNull();
    expect(queue.remove(items[70] as { i: number })).toBe(items[70]);
    expect(queue.remove(items[70] as { i: number })).toBeNull();
    expect(queue.length).toBe(59);
    const rest: number[] = [];
    for (let item = queue.shift(); item; item = queue.shift()) rest.push(item.i);
    expect(rest).toEqual([...Array.from({ length: 60 }, (_, k) => k + 40)].filter((i) => i !== 70));
  });
});
