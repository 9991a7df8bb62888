/**
 * Property-based bad input, tRPC half ("Reliability"): every procedure of the router
 * (subscriptions aside: an SSE stream has no single answer) receives PROPERTY_RUNS generated
 * inputs (default 1,000) split over anonymous, a member and an administrator; no answer ≥ 500, no
 * refusal changes the database. What is generated, how the database is checked after each call
 * and what a run costs: property-bad-input.ts. The REST half is its own file, with its own server
 * and database, so that each stays within the test timeout and a machine with more cores runs the
 * two side by side.
 */
import { badInputRun, trpcTargets } from "./property-bad-input";

badInputRun("tRPC", trpcTargets, 80);
