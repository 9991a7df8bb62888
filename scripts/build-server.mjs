/**
 * Builds the production server: apps/server/src/main.ts and the workspace packages (@enmusubi/*)
 * bundled by esbuild into apps/server/dist/main.mjs (plus the chunk the primary of a cluster never
 * loads), so `pnpm start` runs plain `node`, without tsx compiling TypeScript at run time.
 *
 * Packages from node_modules stay outside the bundle (argon2 and sharp are native, PGlite loads
 * its wasm beside its own files, pg-boss and the rest are used as published); each is imported by
 * the absolute path it resolves to from the workspace package that imports it (pnpm gives each
 * package only its own dependencies). The bundle sits as deep in the repository as the sources
 * it replaces, so paths computed from import.meta.url (drizzle/ migrations, apps/web/dist) still
 * resolve.
 *
 * `--outdir <dir>` writes the bundle elsewhere than apps/server/dist (a private build, e.g. to
 * profile while others run the shared one): any directory three levels below the repository root,
 * as apps/server/dist is, so those paths still resolve; node_modules/.cache/<name> is out of git.
 *
 * esbuild is the one Vite ships with (apps/web's dependency), so nothing is added to the workspace.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fromWeb = createRequire(path.join(root, "apps/web/package.json"));
const fromVite = createRequire(fromWeb.resolve("vite"));
const esbuild = fromVite("esbuild");

const outdirArg = process.argv.indexOf("--outdir");
const outdir = outdirArg === -1 ? path.join(root, "apps/server/dist") : path.resolve(process.argv[outdirArg + 1] ?? "");
const depth = path.relative(root, outdir).split(path.sep);
if (depth.length !== 3 || depth.includes("..")) {
  process.stderr.write(
    `--outdir must be three levels below the repository root, as apps/server/dist (got ${outdir})\n`,
  );
  process.exit(1);
}

/** Bare imports of node_modules packages: external, by the absolute file they resolve to. */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@enmusubi/") || args.path.startsWith("node:")) return undefined;
      if (args.pluginData?.resolving) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (!resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return { path: resolved.path, external: true };
    });
  },
};

const started = Date.now();
await esbuild.build({
  entryPoints: { main: path.join(root, "apps/server/src/main.ts") },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["node", "import"],
  sourcemap: "linked",
  logLevel: "warning",
  plugins: [externalPackages],
});
process.stdout.write(`Built ${path.relative(root, path.join(outdir, "main.mjs"))} in ${Date.now() - started} ms\n`);
