/**
 * `pnpm bench` (its screening line; alone: `pnpm bench:screening`): what screening a member's text
 * costs the send (decision 0042). The rules are the default set the migration ships, read from a
 * freshly migrated database, padded with generated words and patterns to BENCH_SCREENING_RULES
 * (1,000 by default: 950 words, the rest patterns); the text is a 500-character message of
 * ordinary Japanese with a phone number, a LINE ID and full-width and spaced-out letters in it.
 * Each of BENCH_SCREENING_RUNS screenings (20,000 by default) is timed alone; the p95 must stay
 * under 0.2 ms. Compiling the rules (once per change of the rules per process) is timed too.
 *
 * Exits 0 whatever the figures (PASS/FAIL is printed); 1 only when something breaks.
 */
import { performance } from "node:perf_hooks";
import { buildApp } from "../apps/server/src/app";
import { type Rule, RuleSet } from "../packages/api/src/screening/matcher";
import { percentile } from "./lib/stats";
import { prepareTarget, query } from "./lib/target";

const RULES = Number(process.env.BENCH_SCREENING_RULES ?? 1_000);
const RUNS = Number(process.env.BENCH_SCREENING_RUNS ?? 20_000);
const TARGET_P95_MS = 0.2;

const PARAGRAPH =
  "はじめまして！プロフィールを拝見してメッセージしました。週末はカフェ巡りや映画鑑賞をしています。最近は料理にもはまっていて、休日にはパンを焼いたりもします。";
const MESSAGE = (() => {
  const body = `${PARAGRAPH}よかったら ０９０−１２３４−５６７８ か Ｌ Ｉ Ｎ Ｅ: hanako_77 で連絡ください。${PARAGRAPH}`;
  let text = body;
  while (text.length < 500) text += PARAGRAPH;
  return text.slice(0, 500);
})();

async function main() {
  const target = await prepareTarget("bench-screening");
  let defaults: Rule[];
  try {
    const app = await buildApp(target.config, { logger: false });
    try {
      defaults = await query<Rule>(app, "select id, kind, pattern, category, action from screening_rules");
    } finally {
      await app.close();
    }
  } finally {
    await target.cleanup();
  }
  const padded: Rule[] = [...defaults];
  for (let i = 0; padded.length < RULES; i += 1) {
    const word = i % 20 === 19;
    padded.push({
      id: `bench-${i}`,
      kind: word ? "pattern" : "word",
      pattern: word ? `ng${i}[0-9]{3}` : `禁止語${i.toString(36)}ワード`,
      category: "other",
      action: "mask",
    });
  }
  const compileStart = performance.now();
  const rules = new RuleSet(padded);
  const compileMs = performance.now() - compileStart;
  const first = rules.screen(MESSAGE);
  if (first.action !== "mask" || !first.text.includes("＊＊＊")) throw new Error("the bench's message was not masked");
  for (let i = 0; i < 500; i += 1) rules.screen(MESSAGE);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    rules.screen(MESSAGE);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const p95 = percentile(samples, 95);
  console.log(`Screening: ${padded.length} rules (${defaults.length} default), a ${MESSAGE.length}-character message`);
  console.log(`  compile the rules: ${compileMs.toFixed(2)} ms (once per change)`);
  console.log(
    `  screen one message: median ${percentile(samples, 50).toFixed(3)} ms, p95 ${p95.toFixed(3)} ms  < ${TARGET_P95_MS} ms  ${p95 < TARGET_P95_MS ? "PASS" : "FAIL"}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
