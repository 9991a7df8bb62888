/**
 * Property-based bad input, REST half ("Reliability"): every route of /api receives
 * PROPERTY_RUNS generated requests (default 1,000) split over anonymous, a member and an
 * administrator; no answer ≥ 500, every answer held to /api/openapi.json, no refusal changes the
 * database. What is generated, how the database is checked after each request and what a run
 * costs: property-bad-input.ts. The tRPC half is its own file, with its own server and database,
 * so that each stays within the test timeout and a machine with more cores runs the two side by side.
 */
import { badInputRun, restTargets } from "./property-bad-input";

badInputRun("REST", restTargets, 50);
