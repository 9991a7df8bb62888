import { describe, expect, it } from "vitest";
import { pageWindow } from "./pageWindow";

describe("pageWindow", () => {
  it("shows every page when there are five or fewer", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it("keeps a window of five around the current page with the first and last pages and ellipses", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, "ellipsis-end", 20]);
    expect(pageWindow(10, 20)).toEqual([1, "ellipsis-start", 8, 9, 10, 11, 12, "ellipsis-end", 20]);
    expect(pageWindow(20, 20)).toEqual([1, "ellipsis-start", 16, 17, 18, 19, 20]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
