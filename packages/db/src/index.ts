export * from "./client";
export { DataDirLockedError } from "./dir-lock";
export { dumpPglite, loadPglite } from "./pglite-archive";
export { compiledStatement, rowsOf, sentAhead } from "./rows";
export * from "./schema";
export { STARTER_ANNUAL_INCOMES, STARTER_OCCUPATIONS, seedReferenceData } from "./seed/reference";
