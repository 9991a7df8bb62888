/**
 * Business constants of spec §9, one file per kind: every number the product shows or enforces
 * lives in one of them. Import from `@enmusubi/shared` (or `@enmusubi/shared/constants` where the
 * whole package is too much, as on the /login entry).
 */

export * from "./api";
export * from "./bonuses";
export * from "./display";
export * from "./legal";
export * from "./limits";
export * from "./moderation";
export * from "./paging";
export * from "./payments";
export * from "./phone";
export * from "./point-costs";
export * from "./points";
export * from "./prefectures";
export * from "./states";
