import type { Role } from "@enmusubi/shared/constants";

/**
 * The browser session (spec §3 "Session"): the token and the role in localStorage under the keys
 * `token` and `role`. The server re-checks both on every call; the role here only picks the shell.
 */
const TOKEN_KEY = "token";
const ROLE_KEY = "role";

export interface Session {
  token: string;
  role: Role;
}

export function readSession(): Session | null {
  const token = localStorage.getItem(TOKEN_KEY);
  const role = localStorage.getItem(ROLE_KEY);
  if (!token || (role !== "admin" && role !== "user")) return null;
  return { token, role };
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveSession(session: Session): void {
  localStorage.setItem(TOKEN_KEY, session.token);
  localStorage.setItem(ROLE_KEY, session.role);
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(ROLE_KEY);
}

/** The home of a role (spec §2 "Root and guards"). */
export function homeOf(role: Role): string {
  return role === "admin" ? "/admin" : "/user";
}
