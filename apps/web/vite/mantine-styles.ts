import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * Every module of the app that imports a Mantine component imports that component's stylesheet
 * with it, so a screen has the styles of every component it draws, in whatever chunk or shell it
 * is loaded (decision 0041). Written by hand, the per-shell lists of stylesheets fell behind the
 * components: /signup drew its consent checkboxes without Checkbox.css, a 300 px black check mark.
 *
 * Which stylesheets a component needs is read from Mantine's own build: each component's module
 * imports its CSS module (`Checkbox.module.mjs`, whose styles are `@mantine/core/styles/Checkbox.css`)
 * and the components it draws (Checkbox draws InlineInput, Modal draws ModalBase, Overlay and
 * CloseButton…), so the stylesheets of a name are those of every `*.module.mjs` its module reaches.
 * Components of @mantine/dates and @mantine/notifications bring their package's one stylesheet and
 * the @mantine/core components they draw.
 */

const PACKAGES = ["@mantine/core", "@mantine/dates", "@mantine/notifications", "@mantine/modals"] as const;
type MantinePackage = (typeof PACKAGES)[number];

const require = createRequire(import.meta.url);

/** `import { A, B as C, type D } from "x"` (also across lines): [names, specifier]. */
const NAMED_IMPORT = /import\s*(type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;

function importedNames(list: string): string[] {
  return list
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith("type "))
    .map((part) => part.split(/\s+as\s+/)[0] ?? part);
}

class MantineStyles {
  private readonly dirs = new Map<MantinePackage, string>();
  /** Per esm file: the stylesheets (import specifiers) and the files it imports. */
  private readonly perFile = new Map<string, { sheets: string[]; files: string[] }>();
  /** Per package: exported name → the esm file it comes from. */
  private readonly exportsOf = new Map<MantinePackage, Map<string, string>>();
  private order?: Map<string, number>;

  private dir(pkg: MantinePackage): string {
    let dir = this.dirs.get(pkg);
    if (!dir) {
      // `require` resolves the package's CommonJS entry, <dir>/cjs/index.cjs.
      dir = path.dirname(path.dirname(require.resolve(pkg)));
      this.dirs.set(pkg, dir);
    }
    return dir;
  }

  private exported(pkg: MantinePackage): Map<string, string> {
    let map = this.exportsOf.get(pkg);
    if (!map) {
      map = new Map();
      const index = path.join(this.dir(pkg), "esm/index.mjs");
      for (const [, , list = "", from = ""] of readFileSync(index, "utf8").matchAll(NAMED_IMPORT)) {
        if (!from.startsWith(".")) continue;
        for (const name of importedNames(list)) map.set(name, path.resolve(path.dirname(index), from));
      }
      for (const [, list = ""] of readFileSync(index, "utf8").matchAll(/export\s*\{([^}]*)\}\s*;/g)) {
        for (const part of list.split(",")) {
          const [local, as] = part.trim().split(/\s+as\s+/);
          const file = local && map.get(local);
          if (file && as) map.set(as, file);
        }
      }
      this.exportsOf.set(pkg, map);
    }
    return map;
  }

  /** The package an esm file belongs to. */
  private packageOf(file: string): MantinePackage | undefined {
    return PACKAGES.find((pkg) => file.startsWith(`${this.dir(pkg)}${path.sep}`));
  }

  private stylesheetOf(pkg: MantinePackage, cssModule: string): string | undefined {
    if (pkg === "@mantine/core") {
      const name = path.basename(cssModule, ".module.mjs");
      return existsSync(path.join(this.dir(pkg), "styles", `${name}.css`))
        ? `@mantine/core/styles/${name}.css`
        : undefined;
    }
    return existsSync(path.join(this.dir(pkg), "styles.css")) ? `${pkg}/styles.css` : undefined;
  }

  /** What one esm file imports: stylesheets (its CSS modules) and other files of the packages. */
  private imports(file: string): { sheets: string[]; files: string[] } {
    let known = this.perFile.get(file);
    if (!known) {
      known = { sheets: [], files: [] };
      const pkg = this.packageOf(file);
      const source = pkg ? readFileSync(file, "utf8") : "";
      for (const [, from = ""] of source.matchAll(/(?:import|export)\b[^"';]*?from\s*["']([^"']+)["']/g)) {
        if (!pkg || !from.startsWith(".")) continue;
        const target = path.resolve(path.dirname(file), from);
        const sheet = target.endsWith(".module.mjs") && this.stylesheetOf(pkg, target);
        if (sheet) known.sheets.push(sheet);
        else if (!target.endsWith(".module.mjs")) known.files.push(target);
      }
      // A component of another Mantine package draws @mantine/core's components: theirs too.
      for (const [, typeOnly, list = "", from = ""] of source.matchAll(NAMED_IMPORT)) {
        if (typeOnly || from !== "@mantine/core") continue;
        for (const name of importedNames(list)) {
          const target = this.exported("@mantine/core").get(name);
          if (target) known.files.push(target);
        }
      }
      this.perFile.set(file, known);
    }
    return known;
  }

  /**
   * Where a stylesheet comes in Mantine's whole stylesheet (@mantine/core/styles.css concatenates
   * them in the order in which they override each other: UnstyledButton before ActionIcon, Input
   * before PasswordInput…); other packages' after all of core's.
   */
  rank(sheet: string): number {
    if (!this.order) {
      const dir = this.dir("@mantine/core");
      const whole = readFileSync(path.join(dir, "styles.css"), "utf8");
      this.order = new Map();
      for (const name of readdirSync(path.join(dir, "styles"))) {
        if (name.endsWith(".layer.css")) continue;
        const start = readFileSync(path.join(dir, "styles", name), "utf8")
          .trim()
          .slice(0, 300);
        this.order.set(`@mantine/core/styles/${name}`, whole.indexOf(start));
      }
    }
    return this.order.get(sheet) ?? Number.MAX_SAFE_INTEGER;
  }

  /** The stylesheets that the named exports of `pkg` need, in Mantine's order. */
  of(pkg: MantinePackage, names: readonly string[]): string[] {
    const sheets = new Set<string>();
    const seen = new Set<string>();
    const queue = names.flatMap((name) => this.exported(pkg).get(name) ?? []);
    for (let file = queue.pop(); file; file = queue.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const { sheets: own, files } = this.imports(file);
      for (const sheet of own) sheets.add(sheet);
      queue.push(...files);
    }
    return this.sorted(sheets);
  }

  sorted(sheets: Iterable<string>): string[] {
    return [...sheets].sort((a, b) => this.rank(a) - this.rank(b) || a.localeCompare(b));
  }
}

/** The stylesheets a module's Mantine imports need (what the plugin adds to it). */
export function mantineStylesheets(code: string, styles = new MantineStyles()): string[] {
  const sheets = new Set<string>();
  for (const [, typeOnly, list = "", from = ""] of code.matchAll(NAMED_IMPORT)) {
    if (typeOnly || !(PACKAGES as readonly string[]).includes(from)) continue;
    for (const sheet of styles.of(from as MantinePackage, importedNames(list))) sheets.add(sheet);
  }
  return styles.sorted(sheets);
}

/**
 * The Vite plugin: to each source module of the app (not node_modules) that imports Mantine
 * components, it adds `import "<stylesheet>";` for each stylesheet they need, before the module's
 * own imports, so the module's own styles (CSS modules) still come after Mantine's.
 */
export function mantineStyles(): Plugin {
  const styles = new MantineStyles();
  return {
    name: "enmusubi-mantine-styles",
    enforce: "pre",
    transform(code, id) {
      if (id.includes("/node_modules/") || !/\.[cm]?tsx?$/.test(id.split("?")[0] ?? "")) return null;
      const sheets = mantineStylesheets(code, styles);
      if (sheets.length === 0) return null;
      // On the first line, so that no line moves (the source map stays true but for that line's columns).
      return { code: `${sheets.map((sheet) => `import ${JSON.stringify(sheet)};`).join("")}${code}`, map: null };
    },
  };
}
