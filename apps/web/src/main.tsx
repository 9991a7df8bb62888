// The public entry carries only the styles of the components its pages use (the signed-in screens
// load all of Mantine's with them: layout/ShellProviders.tsx; the member dashboard only a few more:
// member/MemberShell.tsx). A component added to /login, /signup or the legal pages adds its
// stylesheet here.
import "@mantine/core/styles/baseline.css";
import "@mantine/core/styles/default-css-variables.css";
import "@mantine/core/styles/global.css";
import "@mantine/core/styles/UnstyledButton.css";
import "@mantine/core/styles/VisuallyHidden.css";
import "@mantine/core/styles/Paper.css";
import "@mantine/core/styles/Text.css";
import "@mantine/core/styles/Title.css";
import "@mantine/core/styles/Anchor.css";
import "@mantine/core/styles/Alert.css";
import "@mantine/core/styles/Button.css";
import "@mantine/core/styles/ActionIcon.css";
import "@mantine/core/styles/CloseButton.css";
import "@mantine/core/styles/Loader.css";
import "@mantine/core/styles/Input.css";
import "@mantine/core/styles/PasswordInput.css";
import "@mantine/core/styles/SegmentedControl.css";
import "@mantine/core/styles/Overlay.css";
import "@mantine/core/styles/ModalBase.css";
import "@mantine/core/styles/Modal.css";
import "@mantine/core/styles/Group.css";
import "@mantine/core/styles/Stack.css";
import "@mantine/core/styles/Flex.css";
import "@mantine/core/styles/Container.css";
import "@mantine/core/styles/Divider.css";
import "@mantine/core/styles/Center.css";
import "@mantine/core/styles/List.css";
import "@mantine/core/styles/Table.css";
import "@mantine/core/styles/Notification.css";
import "@mantine/notifications/styles.css";
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
const Notifications = lazy(() =>
  import("@mantine/notifications").then((module) => ({ default: module.Notifications })),
);

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
      <Notifications position="top-center" />
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
