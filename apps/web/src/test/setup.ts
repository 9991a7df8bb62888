import "@testing-library/jest-dom/vitest";
import { format } from "node:util";
import { notifications } from "@mantine/notifications";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach } from "vitest";
import { fakeMediaQueryList } from "./media-query";

// findBy… and waitFor wait up to 5 s (the library's default is 1 s): on a busy 2-core machine, with
// the api and server projects' databases on the same cores, a re-render can take longer than that.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs; happy-dom lacks some of them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) => fakeMediaQueryList(query, false);
}
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;

// A console.error during a test (React's act() and key warnings, a failed render, an unhandled
// query error) fails that test: such a log is a bug the assertions did not see. A test that
// expects one stubs console.error itself.
const consoleErrors: string[] = [];
const originalConsoleError = console.error;
console.error = (...args: unknown[]) => {
  consoleErrors.push(format(...args));
  originalConsoleError(...args);
};

function failOnConsoleErrors(when: string) {
  const logged = consoleErrors.splice(0);
  if (logged.length > 0) {
    throw new Error(`console.error was called ${when}:\n${logged.join("\n---\n")}`);
  }
}

afterEach(() => {
  cleanup();
  // The files share one module graph (the web project runs unisolated): Mantine's notification
  // store is module state, so each test starts with none shown and none queued.
  notifications.clean();
  localStorage.clear();
  failOnConsoleErrors("during the test");
});
// A log that comes after the file's last test (a late query settling) fails the file.
afterAll(() => failOnConsoleErrors("after the file's last test"));
