import { Navigate, useParams } from "react-router-dom";
import { LegalPage } from "./LegalPage";
import { LEGAL_DOCUMENTS } from "./texts";

/** /legal/:slug, loaded on demand (its texts stay out of the /login entry); unknown slugs go to the terms. */
export default function LegalRoute() {
  const { slug } = useParams();
  const document = LEGAL_DOCUMENTS.find((doc) => doc.slug === slug);
  if (!document) return <Navigate to="/legal/terms-of-service" replace />;
  return <LegalPage document={document} />;
}
