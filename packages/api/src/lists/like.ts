/** `%`, `_` and `\` stand for themselves in a LIKE / ILIKE pattern (PostgreSQL's default escape is `\`). */
export const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
