import { createTheme } from "@mantine/core";

export const theme = createTheme({
  primaryColor: "pink",
  fontFamily:
    '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif',
  headings: { fontFamily: '"Hiragino Sans", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif' },
  defaultRadius: "md",
});
