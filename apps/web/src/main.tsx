import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/dates/styles.css";
import "./global.css";
import { MantineProvider } from "@mantine/core";
import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes } from "./AppRoutes";
import { DATES_SETTINGS } from "./lib/dates";
import { createApiClient, createQueryClient, TRPCProvider } from "./lib/trpc";
import { cssVariablesResolver, theme } from "./theme";

function App() {
  const [queryClient] = useState(() => createQueryClient());
  const [trpcClient] = useState(() => createApiClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DatesProvider settings={DATES_SETTINGS}>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
            <ModalsProvider labels={{ confirm: "OK", cancel: "キャンセル" }}>
              <Notifications position="top-center" />
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </ModalsProvider>
          </TRPCProvider>
        </QueryClientProvider>
      </DatesProvider>
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
