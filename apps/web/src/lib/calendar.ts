// Without dayjs, so the theme (in the /login entry) can use it; lib/dates.ts has the date handling.

/**
 * Date pickers in Japanese: headings in Japanese order (the defaults read 「4月 1995」), named
 * arrow buttons, and without the neighbouring months' days (Mantine draws them at half opacity,
 * too faint to read).
 */
export const JAPANESE_CALENDAR = {
  monthLabelFormat: "YYYY年M月",
  yearLabelFormat: "YYYY年",
  monthsListFormat: "M月",
  hideOutsideDates: true,
  // The header's arrow buttons, named for screen readers (the level switch is named by its text).
  ariaLabels: {
    previousMonth: "前の月",
    nextMonth: "次の月",
    previousYear: "前の年",
    nextYear: "次の年",
    previousDecade: "前の10年",
    nextDecade: "次の10年",
  },
} as const;
