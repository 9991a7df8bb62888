import { Text } from "@mantine/core";
import { type ComponentType, Fragment, startTransition, useEffect, useState } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { Loading } from "./layout/Loading";
import { RequireRole, RootRedirect } from "./lib/guards";
import { LoginPage } from "./public/LoginPage";

/**
 * Only /login is in the entry bundle; sign-up, the legal pages and each shell are chunks of their
 * own, so a visitor on /login downloads neither the back-office nor the member screens. Every
 * other screen comes with the API providers (tRPC, TanStack Query: lib/api-providers.tsx), and
 * the admin shell also with ShellProviders (date pickers, confirmation dialogs). The member
 * shell's first page (the dashboard) does without them; its other screens and dialogs bring them
 * when they load (member/lazy-screen.tsx). Every module brings the styles of the Mantine
 * components it imports (vite/mantine-styles.ts, decision 0041).
 */
export function withProviders(load: () => Promise<{ default: ComponentType }>, { shell = false } = {}) {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    loading ??= Promise.all([
      load(),
      import("./lib/api-providers"),
      shell ? import("./layout/ShellProviders") : { ShellProviders: Fragment },
    ]).then(([{ default: Screen }, { ApiProviders }, { ShellProviders }]) => {
      loaded = () => (
        <ApiProviders>
          <ShellProviders>
            <Screen />
          </ShellProviders>
        </ApiProviders>
      );
      return loaded;
    });
    return loading;
  };
  /**
   * Not React.lazy: a lazy component whose chunk arrives after its Suspense fallback was drawn is
   * shown no sooner than 300 ms after that fallback (React 19's FALLBACK_THROTTLE_MS), however
   * fast the chunk came: a third of the dashboard's LCP on Lighthouse's phone. This draws the
   * loader itself and the screen as soon as its chunks have run (a state update, not throttled:
   * the real dashboard's LCP in Chromium 0.66 → 0.38 s after navigation).
   */
  function ScreenRoute() {
    const [state, setState] = useState<{ screen?: ComponentType; failed?: true }>(() => ({ screen: loaded }));
    useEffect(() => {
      if (state.screen) return;
      let live = true;
      // A transition: React renders the shell in slices that yield to the browser (no long task
      // for the phone's input to wait behind), as it did a lazy component's retry.
      preload().then(
        (screen) => live && startTransition(() => setState({ screen })),
        () => live && setState({ failed: true }),
      );
      return () => {
        live = false;
      };
    }, [state.screen]);
    if (state.failed) return <Text c="red">画面を読み込めませんでした。再読み込みしてください。</Text>;
    return state.screen ? <state.screen /> : <Loading />;
  }
  return ScreenRoute;
}
const AdminShell = withProviders(() => import("./admin/AdminShell"), { shell: true });
const MemberShell = withProviders(() => import("./member/MemberShell"));
const SignupPage = withProviders(() => import("./public/SignupPage"));
const LegalRoute = withProviders(() => import("./legal/LegalRoute"));
const LinkActionPage = withProviders(() => import("./public/LinkActionPage"));

/** Routes of spec §2. Unknown paths outside the shells render nothing. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/legal/:slug" element={<LegalRoute />} />
      <Route
        path="/admin/*"
        element={
          <RequireRole requires="admin">
            <AdminShell />
          </RequireRole>
        }
      />
      <Route
        path="/user/*"
        element={
          <RequireRole requires="user">
            <MemberShell />
          </RequireRole>
        }
      />
      {/* One-time links from mails: /notice-mail/stop and /email-change/confirm. */}
      {["/notice-mail/:action", "/email-change/:action"].map((path) => (
        <Route key={path} path={path} element={<LinkActionPage />} />
      ))}
      <Route path="/legal" element={<Navigate to="/legal/terms-of-service" replace />} />
      <Route path="*" element={null} />
    </Routes>
  );
}
