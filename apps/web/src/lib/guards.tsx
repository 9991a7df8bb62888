import type { Role } from "@enmusubi/shared/constants";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { Loading } from "../layout/Loading";
import { homeOf, readSession, type Session } from "./session";

/** Reads the stored session after mount, so the guard shows its loading text first (spec §2). */
function useStoredSession(): { ready: boolean; session: Session | null } {
  const [state, setState] = useState<{ ready: boolean; session: Session | null }>({ ready: false, session: null });
  useEffect(() => setState({ ready: true, session: readSession() }), []);
  return state;
}

/** No role → /login; the other role → that role's home. */
export function RequireRole({ requires: role, children }: { requires: Role; children: ReactNode }) {
  const { ready, session } = useStoredSession();
  const location = useLocation();
  if (!ready) return <Loading />;
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (session.role !== role) return <Navigate to={homeOf(session.role)} replace />;
  return <>{children}</>;
}

/** `/`: a signed-in visitor goes to their home, anyone else to /login. */
export function RootRedirect() {
  const { ready, session } = useStoredSession();
  if (!ready) return <Loading />;
  return <Navigate to={session ? homeOf(session.role) : "/login"} replace />;
}
