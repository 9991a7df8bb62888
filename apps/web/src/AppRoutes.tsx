import { type ComponentType, Fragment, lazy, type ReactNode, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { Loading } from "./layout/Loading";
import { RequireRole, RootRedirect } from "./lib/guards";
import { LoginPage } from "./public/LoginPage";

/**
 * Only /login is in the entry bundle; sign-up, the legal pages and each shell are chunks of their
 * own, so a visitor on /login downloads neither the back-office nor the member screens. Every
 * other screen comes with the API providers (tRPC, TanStack Query: lib/api-providers.tsx), and
 * the admin shell also with ShellProviders (all Mantine styles, date pickers, confirmation
 * dialogs). The member shell's first page (the dashboard) does without them; its other screens
 * and dialogs bring them when they load (member/lazy-screen.tsx).
 */
function withProviders(load: () => Promise<{ default: ComponentType }>, { shell = false } = {}) {
  return lazy(async () => {
    const [{ default: Screen }, { ApiProviders }, { ShellProviders }] = await Promise.all([
      load(),
      import("./lib/api-providers"),
      shell ? import("./layout/ShellProviders") : { ShellProviders: Fragment },
    ]);
    return {
      default: () => (
        <ApiProviders>
          <ShellProviders>
            <Screen />
          </ShellProviders>
        </ApiProviders>
      ),
    };
  });
}
const AdminShell = withProviders(() => import("./admin/AdminShell"), { shell: true });
const MemberShell = withProviders(() => import("./member/MemberShell"));
const SignupPage = withProviders(() => import("./public/SignupPage"));
const LegalRoute = withProviders(() => import("./legal/LegalRoute"));
const LinkActionPage = withProviders(() => import("./public/LinkActionPage"));

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
      {/* One-time links from mails (issue 25): /notice-mail/stop and /email-change/confirm. */}
      {["/notice-mail/:action", "/email-change/:action"].map((path) => (
        <Route
          key={path}
          path={path}
          element={
            <Lazy>
              <LinkActionPage />
            </Lazy>
          }
        />
      ))}
      <Route path="/legal" element={<Navigate to="/legal/terms-of-service" replace />} />
      <Route path="*" element={null} />
    </Routes>
  );
}
