import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "./legal-env";

/**
 * The SmartPit simulator (`POST /dev/smartpit/pay`) pays any order without money: a configuration
 * that would serve it with NODE_ENV=production stops the server at start-up with a clear error
 * (decision 0043), instead of being quietly ignored.
 */

const base = () => ({
  ...PRODUCTION_PARTICULARS,
  ...PRODUCTION_TEST_SMS,
  JWT_SECRET: "x".repeat(40),
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-simulator-test-")),
  LOG_LEVEL: "silent",
});

describe("the SmartPit simulator in production", () => {
  for (const value of ["true", "1"]) {
    it(`SMARTPIT_SIMULATOR=${value} with NODE_ENV=production refuses to load the configuration`, () => {
      expect(() => loadConfig({ ...base(), NODE_ENV: "production", SMARTPIT_SIMULATOR: value })).toThrow(
        /SMARTPIT_SIMULATOR.*production/s,
      );
    });
  }

  it("production without it, or with it switched off, starts as before", () => {
    expect(loadConfig({ ...base(), NODE_ENV: "production" }).smartPitSimulator).toBe(false);
    expect(loadConfig({ ...base(), NODE_ENV: "production", SMARTPIT_SIMULATOR: "false" }).smartPitSimulator).toBe(
      false,
    );
  });

  it("development and test still serve it when asked", () => {
    expect(loadConfig({ ...base(), NODE_ENV: "development", SMARTPIT_SIMULATOR: "true" }).smartPitSimulator).toBe(true);
    expect(loadConfig({ ...base(), NODE_ENV: "test", SMARTPIT_SIMULATOR: "1" }).smartPitSimulator).toBe(true);
  });

  it("a configuration made by hand with the simulator on in production is refused by buildApp before anything opens", async () => {
    const config = { ...loadConfig({ ...base(), NODE_ENV: "production" }), smartPitSimulator: true };
    await expect(buildApp(config, { logger: false })).rejects.toThrow(/SMARTPIT_SIMULATOR.*production/s);
  });
});
