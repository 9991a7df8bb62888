import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** In development the API runs on :3000 (`pnpm dev`); Vite proxies the server's paths to it. */
const api = process.env.API_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { "/trpc": api, "/api": api, "/uploads": api, "/healthz": api },
  },
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 900 },
});
