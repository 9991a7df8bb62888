import type { AppRouter } from "@enmusubi/api";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";

/**
 * The server's answers and inputs as the web app receives them, derived from the router (the only
 * thing the web app takes from the API package, as a type). Screens name their data from these,
 * never by re-declaring a server shape.
 */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
