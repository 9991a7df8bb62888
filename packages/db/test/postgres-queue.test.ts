import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

/**
 * postgres.js keeps its pool's connections in queues (src/queue.js). Unpatched, a queue that is
 * never empty when shifted, as the pool's idle connections are under load, grows by one spent slot
 * per shift and every `remove` scans them all: about a tenth of `/api/auth/me`'s server CPU
 * (decision 0037). patches/postgres@3.4.9.patch compacts it ("queue compaction" in
 * patches/README.md); these hold it to that and to what the pool relies on.
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
  it("queue compaction: keeps few spent slots while it is never emptied, so remove() scans only those", () => {
    const queue = Queue([0, 1, 2]);
    let next = 3;
    for (let i = 0; i < 10_000; i++) {
      queue.shift();
      queue.push(next++);
    }
    // The array remove() searches, seen through the search itself.
    const indexOf = vi.spyOn(Array.prototype, "indexOf");
    const removed = queue.remove(next - 1);
    const searched = indexOf.mock.contexts.map((array) => (array as unknown[]).length);
    indexOf.mockRestore();
    expect(removed).toBe(next - 1);
    expect(queue.length).toBe(2);
    // Unpatched: one slot per shift since the queue was last empty (10,003).
    expect(searched.length).toBeGreaterThan(0);
    expect(Math.max(...searched)).toBeLessThan(100);
  });

  it("stays first in, first out while it is never emptied, across many compactions", () => {
    const queue = Queue<number>([0, 1, 2]);
    let next = 3;
    const outOfOrder: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      if (queue.shift() !== i) outOfOrder.push(i);
      queue.push(next++);
      if (queue.length !== 3) outOfOrder.push(i);
    }
    expect(outOfOrder).toEqual([]);
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
