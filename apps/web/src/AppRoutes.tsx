import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { Loading } from "./layout/Loading";
import { RequireRole, RootRedirect } from "./lib/guards";
import { LoginPage } from "./public/LoginPage";

/**
 * Only /login is in the entry bundle; sign-up, the legal pages and each shell are chunks of their
 * own, so a visitor on /login downloads neither the back-office nor the member screens. The shells
 * come with ShellProviders (all Mantine styles, date pickers).
 */
function withShellProviders(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => {
    const [{ default: Shell }, { ShellProviders }] = await Promise.all([load(), import("./layout/ShellProviders")]);
    return {
      default: () => (
        <ShellProviders>
          <Shell />
        </ShellProviders>
      ),
    };
  });
}
const AdminShell = withShellProviders(() => import("./admin/AdminShell"));
const MemberShell = withShellProviders(() => import("./member/MemberShell"));
const SignupPage = lazy(() => import("./public/SignupPage"));
const LegalRoute = lazy(() => import("./legal/LegalRoute"));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/** Routes of spec §2. Unknown paths outside the shells render nothing. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route path="/login" element={<LoginPage />} />
      <Route
        path="/signup"
        element={
          <Lazy>
            <SignupPage />
          </Lazy>
        }
      />
      <Route
        path="/legal/:slug"
        element={
          <Lazy>
            <LegalRoute />
          </Lazy>
        }
      />
      <Route
        path="/admin/*"
        element={
          <RequireRole requires="admin">
            <Lazy>
              <AdminShell />
            </Lazy>
          </RequireRole>
        }
      />
      <Route
        path="/user/*"
        element={
          <RequireRole requires="user">
            <Lazy>
              <MemberShell />
            </Lazy>
          </RequireRole>
        }
      />
      <Route path="/legal" element={<Navigate to="/legal/terms-of-service" replace />} />
      <Route path="*" element={null} />
    </Routes>
  );
}
