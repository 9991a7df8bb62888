export * from "./client";
export { DataDirLockedError } from "./dir-lock";
export * from "./schema";
export { STARTER_ANNUAL_INCOMES, STARTER_OCCUPATIONS, seedReferenceData } from "./seed/reference";
