import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { Loading } from "./layout/Loading";
import { LegalPage } from "./legal/LegalPage";
import { LEGAL_DOCUMENTS } from "./legal/texts";
import { RequireRole, RootRedirect } from "./lib/guards";
import { LoginPage } from "./public/LoginPage";
import { SignupPage } from "./public/SignupPage";

/** Each shell is its own bundle: a visitor on /login never downloads the back-office. */
const AdminShell = lazy(() => import("./admin/AdminShell"));
const MemberShell = lazy(() => import("./member/MemberShell"));

/** Routes of spec §2. Unknown paths outside the shells render nothing. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/signup" element={<SignupPage />} />
      {LEGAL_DOCUMENTS.map((doc) => (
        <Route key={doc.slug} path={`/legal/${doc.slug}`} element={<LegalPage document={doc} />} />
      ))}
      <Route
        path="/admin/*"
        element={
          <RequireRole requires="admin">
            <Suspense fallback={<Loading />}>
              <AdminShell />
            </Suspense>
          </RequireRole>
        }
      />
      <Route
        path="/user/*"
        element={
          <RequireRole requires="user">
            <Suspense fallback={<Loading />}>
              <MemberShell />
            </Suspense>
          </RequireRole>
        }
      />
      <Route path="/legal" element={<Navigate to="/legal/terms-of-service" replace />} />
      <Route path="*" element={null} />
    </Routes>
  );
}
