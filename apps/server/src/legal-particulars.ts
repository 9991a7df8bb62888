/**
 * The particulars 特商法 and 出会い系サイト規制法 make the operator publish (decision 0043): the server
 * shows a marked placeholder for each one unset in development, and refuses to start with
 * NODE_ENV=production while any is unset, blank or a placeholder (`assertSafeForEnv`).
 */

export interface OperatorParticulars {
  name: string;
  address: string;
  phone: string;
  email: string;
  datingBusinessNumber: string;
}

/** Each particular and the variable that sets it. */
export const PARTICULAR_VARIABLES: Record<keyof OperatorParticulars, string> = {
  name: "OPERATOR_NAME",
  address: "OPERATOR_ADDRESS",
  phone: "OPERATOR_PHONE",
  email: "OPERATOR_EMAIL",
  datingBusinessNumber: "DATING_BUSINESS_NUMBER",
};

/** What a placeholder looks like, so a page never shows an invented particular as real. */
export const operatorPlaceholder = (variable: string) => `（未設定：${variable}）`;

/**
 * Words that mark a value as a stand-in, not a particular: the server's own placeholder (未設定),
 * the documentation's examples (example.jp, 000-0000-0000, 東京都千代田区…) and the usual fillers.
 */
const PLACEHOLDER_MARKS = [
  /未設定/,
  /example/i,
  /x{3,}/i,
  /×{2,}/,
  /[○〇●◯]{2,}/,
  /…|\.\.\./,
  /dummy|placeholder|changeme|change-me|\btodo\b|\btbd\b/i,
  /ダミー|サンプル|仮入力/,
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why `value` cannot be published as the particular `key`, or null when it can. */
export function particularProblem(key: keyof OperatorParticulars, value: string | undefined): string | null {
  const text = value?.trim() ?? "";
  // The configuration puts the marked placeholder in place of an unset variable.
  if (text === "" || text === operatorPlaceholder(PARTICULAR_VARIABLES[key])) return "unset or blank";
  if (PLACEHOLDER_MARKS.some((mark) => mark.test(text))) return `looks like a placeholder (${JSON.stringify(text)})`;
  const digits = text.replace(/\D/g, "");
  // 000-0000-0000, 第00000000000号, and a phone number 03-0000-0000: numbers that name nobody.
  const zeroPhone = key === "phone" && /0000-?0000$/.test(text.replace(/[^\d-]/g, ""));
  if ((digits.length > 0 && /^0+$/.test(digits)) || zeroPhone)
    return `looks like a placeholder (${JSON.stringify(text)})`;
  if (key === "email" && !EMAIL.test(text)) return `not an e-mail address (${JSON.stringify(text)})`;
  if (key === "phone" && digits.length < 10) return `not a phone number (${JSON.stringify(text)})`;
  return null;
}

/** One line per particular that cannot be published, naming its variable. */
export function particularProblems(particulars: OperatorParticulars): string[] {
  const lines: string[] = [];
  for (const [key, variable] of Object.entries(PARTICULAR_VARIABLES) as Array<[keyof OperatorParticulars, string]>) {
    const problem = particularProblem(key, particulars[key]);
    if (problem) {
      lines.push(
        `  ${variable}: ${problem}; the legal pages (特定商取引法に基づく表記, 利用規約) must show the real particular when NODE_ENV=production`,
      );
    }
  }
  return lines;
}
