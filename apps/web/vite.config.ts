import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { mantineStyles } from "./vite/mantine-styles";

/** In development the API runs on :3000 (`pnpm dev`); Vite proxies the server's paths to it. */
const api = process.env.API_URL ?? "http://127.0.0.1:3000";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, compressed once at the highest
 * levels, so the server sends them as they are (@fastify/static `preCompressed`) instead of
 * compressing on every request or sending them raw.
 */
function precompress(): Plugin {
  return {
    name: "enmusubi-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "dist";
      const texts = Object.keys(bundle).filter((name) => /\.(js|css|html|svg|json)$/.test(name));
      await Promise.all(
        texts.map(async (name) => {
          const file = path.join(dir, name);
          const data = await readFile(file);
          if (data.length < 1024) return;
          await writeFile(
            `${file}.br`,
            await brotli(data, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
            }),
          );
          await writeFile(`${file}.gz`, await gz(data, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [mantineStyles(), react(), precompress()],
  server: {
    port: 5173,
    proxy: { "/trpc": api, "/api": api, "/uploads": api, "/healthz": api },
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically in one chunk: otherwise each module it shares
            // with a lazy screen (React DOM, Button, Text…) is a file of its own, and /login waits
            // for eight requests instead of two.
            { name: "entry", tags: ["$initial"], priority: 2 },
            // Popovers' positioning, only for screens with menus, selects and tooltips: kept apart
            // from the scroll area the dashboard's table needs, which it would otherwise join.
            { name: "floating-ui", test: /node_modules[\\/]@floating-ui[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
