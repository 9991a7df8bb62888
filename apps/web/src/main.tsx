// Mantine's base styles. Each component's stylesheet comes with the module that imports the
// component (vite/mantine-styles.ts, decision 0041), on whatever screen or shell it is drawn.
import "@mantine/core/styles/baseline.css";
import "@mantine/core/styles/default-css-variables.css";
import "@mantine/core/styles/global.css";
import "./global.css";
import { MantineProvider } from "@mantine/core";
import { lazy, StrictMode, Suspense, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes } from "./AppRoutes";
import { useIdle } from "./lib/idle";
import { readSession } from "./lib/session";
import { cssVariablesResolver, theme } from "./theme";

/**
 * Mantine's notifications container (portal, transitions: 14 KB gzip) is not part of the first
 * screen. It is loaded when the browser is idle for a signed-in visitor (a live notice, such as
 * points credited, may come without an action), and for a visitor who is not signed in (/login)
 * at their first key press or pointer press: nothing notifies them before they act, and a
 * notification shown before the container mounts waits in Mantine's store until then.
 */
const Notifications = lazy(() => import("./layout/Notifications"));

function useFirstInteraction(): boolean {
  const [acted, setActed] = useState(false);
  useEffect(() => {
    const onAct = () => setActed(true);
    const options = { once: true, capture: true, passive: true } as const;
    window.addEventListener("pointerdown", onAct, options);
    window.addEventListener("keydown", onAct, options);
    return () => {
      window.removeEventListener("pointerdown", onAct, options);
      window.removeEventListener("keydown", onAct, options);
    };
  }, []);
  return acted;
}

function DeferredNotifications() {
  const idle = useIdle();
  const acted = useFirstInteraction();
  if (!acted && !(idle && readSession())) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}

function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DeferredNotifications />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </MantineProvider>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
