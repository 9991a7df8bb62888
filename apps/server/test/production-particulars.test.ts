import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig, operatorPlaceholder } from "../src/config";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "./legal-env";

/**
 * With NODE_ENV=production the server refuses to start while a legal particular (特商法's operator
 * name, address, phone, e-mail; the dating-business number) is unset, blank or a placeholder, with one
 * line per variable (decision 0043). Development and tests show the marked placeholder instead.
 */

const VARIABLES = Object.keys(PRODUCTION_PARTICULARS) as Array<keyof typeof PRODUCTION_PARTICULARS>;
const base = () => ({
  JWT_SECRET: "x".repeat(40),
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-particulars-test-")),
  LOG_LEVEL: "silent",
});
const production = (overrides: Record<string, string | undefined> = {}) => ({
  ...base(),
  NODE_ENV: "production",
  ...PRODUCTION_PARTICULARS,
  ...PRODUCTION_TEST_SMS,
  ...overrides,
});
const refusal = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
};

describe("production and the legal particulars", () => {
  it("starts with every particular set", () => {
    const config = loadConfig(production());
    expect(config.operator).toEqual({
      name: PRODUCTION_PARTICULARS.OPERATOR_NAME,
      address: PRODUCTION_PARTICULARS.OPERATOR_ADDRESS,
      phone: PRODUCTION_PARTICULARS.OPERATOR_PHONE,
      email: PRODUCTION_PARTICULARS.OPERATOR_EMAIL,
      datingBusinessNumber: PRODUCTION_PARTICULARS.DATING_BUSINESS_NUMBER,
    });
  });

  it("with none set, refuses with one line for each missing variable", () => {
    const unset = Object.fromEntries(VARIABLES.map((v) => [v, undefined]));
    const message = refusal(production(unset));
    const lines = message.split("\n");
    expect(lines[0]).toBe("Invalid configuration:");
    for (const variable of VARIABLES) {
      expect(lines.filter((line) => line.startsWith(`  ${variable}: unset or blank`))).toHaveLength(1);
    }
    expect(lines).toHaveLength(1 + VARIABLES.length);
  });

  for (const variable of VARIABLES) {
    it(`${variable}: unset, blank or a placeholder is refused, naming only that variable`, () => {
      // The server's own marked placeholder stands for an unset variable.
      for (const value of [undefined, "", "   ", operatorPlaceholder(variable)]) {
        const message = refusal(production({ [variable]: value }));
        expect(message).toContain(`${variable}: unset or blank`);
        expect(message.split("\n")).toHaveLength(2);
      }
      for (const value of ["未設定", "（未設定）", "example", "XXX"]) {
        expect(refusal(production({ [variable]: value }))).toContain(`${variable}: looks like a placeholder`);
      }
    });
  }

  it("knows the documentation's examples and fillers for what they are", () => {
    const cases: Array<[string, string]> = [
      ["OPERATOR_PHONE", "000-0000-0000"],
      ["OPERATOR_PHONE", "03-0000-0000"],
      ["OPERATOR_EMAIL", "support@example.jp"],
      ["OPERATOR_EMAIL", "legal@EXAMPLE.com"],
      ["OPERATOR_ADDRESS", "東京都千代田区…"],
      ["OPERATOR_ADDRESS", "東京都〇〇区〇〇町1-1"],
      ["OPERATOR_NAME", "株式会社xxxx"],
      ["OPERATOR_NAME", "ダミー株式会社"],
      ["DATING_BUSINESS_NUMBER", "第00000000000号"],
    ];
    for (const [variable, value] of cases) {
      expect(refusal(production({ [variable]: value })), `${variable}=${value}`).toContain(
        `${variable}: looks like a placeholder`,
      );
    }
    expect(refusal(production({ OPERATOR_EMAIL: "legal-at-enmusubi" }))).toContain(
      "OPERATOR_EMAIL: not an e-mail address",
    );
    expect(refusal(production({ OPERATOR_PHONE: "110" }))).toContain("OPERATOR_PHONE: not a phone number");
  });

  it("the simulator and a missing particular are both named in one refusal", () => {
    const message = refusal(production({ SMARTPIT_SIMULATOR: "true", OPERATOR_ADDRESS: undefined }));
    expect(message).toMatch(/SMARTPIT_SIMULATOR: .*production/);
    expect(message).toContain("OPERATOR_ADDRESS: unset or blank");
  });

  it("a configuration made by hand with a placeholder is refused by buildApp before anything opens", async () => {
    const config = loadConfig(production());
    const handMade = { ...config, operator: { ...config.operator, phone: "000-0000-0000" } };
    await expect(buildApp(handMade, { logger: false })).rejects.toThrow(/OPERATOR_PHONE: looks like a placeholder/);
  });

  it("development and test start without them and show the marked placeholders", () => {
    for (const NODE_ENV of ["development", "test"]) {
      const config = loadConfig({ ...base(), NODE_ENV, OPERATOR_NAME: "  " });
      expect(config.operator.name).toBe(operatorPlaceholder("OPERATOR_NAME"));
      expect(config.operator.datingBusinessNumber).toBe(operatorPlaceholder("DATING_BUSINESS_NUMBER"));
    }
  });
});
