import { describe, expect, it } from "vitest";
import { mantineStyles, mantineStylesheets } from "./mantine-styles";

const core = (names: string) => `@mantine/core/styles/${names}.css`;

describe("each module brings the stylesheets of the Mantine components it imports", () => {
  it("a checkbox brings its own and those of what it draws, in Mantine's order", () => {
    const sheets = mantineStylesheets(`import { Anchor, Checkbox } from "@mantine/core";`);
    expect(sheets).toEqual(
      expect.arrayContaining([core("Checkbox"), core("InlineInput"), core("Anchor"), core("Text")]),
    );
    // Mantine's whole stylesheet puts InlineInput before Checkbox and Text before Anchor (they override them).
    expect(sheets.indexOf(core("InlineInput"))).toBeLessThan(sheets.indexOf(core("Checkbox")));
    expect(sheets.indexOf(core("Text"))).toBeLessThan(sheets.indexOf(core("Anchor")));
  });

  it("a dialog, a date input and the dialogs' provider bring what they draw", () => {
    expect(mantineStylesheets(`import { Modal } from "@mantine/core";`)).toEqual(
      expect.arrayContaining([core("Modal"), core("ModalBase"), core("Overlay"), core("CloseButton")]),
    );
    expect(mantineStylesheets(`import {\n  DateInput,\n} from "@mantine/dates";`)).toEqual(
      expect.arrayContaining(["@mantine/dates/styles.css", core("Popover"), core("Input")]),
    );
    expect(mantineStylesheets(`import { ModalsProvider } from "@mantine/modals";`)).toEqual(
      expect.arrayContaining([core("Modal"), core("Button")]),
    );
  });

  it("types, helpers and other packages bring nothing", () => {
    expect(mantineStylesheets(`import type { CheckboxProps } from "@mantine/core";`)).toEqual([]);
    expect(mantineStylesheets(`import { createTheme, rem, type MantineSize } from "@mantine/core";`)).toEqual([]);
    expect(mantineStylesheets(`import { notifications } from "@mantine/notifications";`)).toEqual([]);
    expect(mantineStylesheets(`import { Checkbox } from "./Checkbox";`)).toEqual([]);
  });

  it("the plugin adds the imports on the module's first line, so no line of it moves", () => {
    const plugin = mantineStyles();
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    const source = `import { Checkbox } from "@mantine/core";\nimport classes from "./x.module.css";\n`;
    const out = transform(source, "/app/src/Consent.tsx");
    const lines = out?.code.split("\n") ?? [];
    expect(lines[0]).toMatch(
      /^import "@mantine\/core\/styles\/.*\.css";.*import \{ Checkbox \} from "@mantine\/core";$/,
    );
    expect(lines[0]).toContain(`import "${core("Checkbox")}";`);
    expect(lines.slice(1)).toEqual(source.split("\n").slice(1));
    expect(transform(source, "/app/node_modules/x/index.tsx")).toBeNull();
    expect(transform(`import { useState } from "react";`, "/app/src/x.tsx")).toBeNull();
  });
});
