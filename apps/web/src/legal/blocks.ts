/** The pieces a legal document is written in: paragraphs, lists and tables. */
export type LegalBlock =
  | { kind: "p"; text: string }
  | { kind: "list"; items: string[]; ordered?: boolean }
  | { kind: "table"; head: string[]; rows: string[][]; label?: string };

export const p = (text: string): LegalBlock => ({ kind: "p", text });
export const list = (items: string[], ordered = false): LegalBlock => ({ kind: "list", items, ordered });
