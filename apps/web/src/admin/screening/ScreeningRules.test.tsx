import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { type Handlers, renderWithProviders } from "../../test/render";
import { ScreeningRules } from "./ScreeningRules";
import type { ScreeningRule } from "./types";

/** Picks `option` in the Mantine Select labelled `label` (its list is drawn in a portal). */
async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("combobox", { name: label }));
  await userEvent.click(
    within(await screen.findByRole("listbox", { name: label, hidden: true })).getByRole("option", {
      name: option,
      hidden: true,
    }),
  );
}

const badRequest = (message: string) =>
  new TRPCClientError(message, { result: { error: { code: -32600, message, data: { httpStatus: 400 } } } } as never);

const rule = (id: string, pattern: string, extra: Partial<ScreeningRule> = {}): ScreeningRule => ({
  id,
  kind: "word",
  pattern,
  category: "solicitation",
  action: "hold",
  note: "",
  enabled: true,
  updatedAt: new Date("2026-11-20T10:00:00Z"),
  ...extra,
});

const RULES = [
  rule("r1", "ホ別", { note: "ホテル代別" }),
  rule("r2", "(?<![0-9])0[0-9]{9,10}", { kind: "pattern", category: "contact", action: "mask", enabled: false }),
];

const list = (rules: ScreeningRule[]) => ({
  rules,
  pagination: { total: rules.length, totalCapped: false, totalPages: 1, currentPage: 1, limit: 20 },
});

function renderRules(handlers: Handlers) {
  return renderWithProviders(
    <>
      <Notifications />
      <ScreeningRules />
    </>,
    handlers,
  );
}

describe("ScreeningRules", { timeout: 15_000 }, () => {
  it("lists the rules with kind, category, action and 無効; filters by category and keyword", async () => {
    const { calls } = renderRules({ "adminScreening.rules": () => list(RULES) });
    const rows = await screen.findAllByTestId("rule-row");
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByText("勧誘・援助")).toBeInTheDocument();
    expect(within(first).getByText("保留（確認待ち）")).toBeInTheDocument();
    expect(within(first).getByText("ホテル代別")).toBeInTheDocument();
    expect(within(second).getByText("パターン（正規表現）")).toBeInTheDocument();
    expect(within(second).getByText("無効")).toBeInTheDocument();
    expect(screen.getByTestId("rule-total")).toHaveTextContent("ルール数 2件");

    await choose("分類", "連絡先");
    await userEvent.type(screen.getByLabelText("キーワード"), "電話");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "adminScreening.rules").at(-1)?.input).toEqual({
        page: 1,
        category: "contact",
        keyword: "電話",
      }),
    );
  });

  it("adds a rule: an invalid pattern shows the server's message and keeps what was typed; then it is saved", async () => {
    let valid = false;
    const { calls } = renderRules({
      "adminScreening.rules": () => list(RULES),
      "adminScreening.createRule": (input) => {
        if (!valid) throw badRequest(MSG.screeningPatternInvalid);
        return rule("r3", input.pattern, { kind: input.kind, category: input.category, action: input.action });
      },
    });
    await screen.findAllByTestId("rule-row");
    await userEvent.click(screen.getByRole("button", { name: "ルールを追加" }));
    const dialog = await screen.findByRole("dialog", { name: "ルールの追加" });
    // A blank word is refused here, before the server is asked.
    await userEvent.click(within(dialog).getByRole("button", { name: "追加する" }));
    expect(await within(dialog).findByText(MSG.screeningPatternRequired)).toBeInTheDocument();

    await userEvent.click(within(dialog).getByLabelText("パターン（正規表現）"));
    const field = within(dialog).getByRole("textbox", { name: /パターン（正規表現）/ });
    await userEvent.click(field);
    await userEvent.paste("([0-9]");
    await choose("対応", "拒否");
    expect(within(dialog).getByTestId("action-help")).toHaveTextContent("送信・投稿を受け付けず");
    await userEvent.click(within(dialog).getByRole("button", { name: "追加する" }));
    expect(await within(dialog).findByText(MSG.screeningPatternInvalid)).toBeInTheDocument();
    expect(field).toHaveValue("([0-9]");

    valid = true;
    await userEvent.clear(field);
    await userEvent.paste("[0-9]{11}");
    await userEvent.click(within(dialog).getByRole("button", { name: "追加する" }));
    expect(await screen.findByText(MSG.screeningRuleSaved)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "ルールの追加" })).toBeNull());
    expect(calls.filter((c) => c.path === "adminScreening.createRule").map((c) => c.input)).toEqual([
      { kind: "pattern", pattern: "([0-9]", category: "contact", action: "refuse", note: "", enabled: true },
      { kind: "pattern", pattern: "[0-9]{11}", category: "contact", action: "refuse", note: "", enabled: true },
    ]);
  });

  it("edits a rule (turned off) and deletes one after a confirmation", async () => {
    const { calls } = renderRules({
      "adminScreening.rules": () => list(RULES),
      "adminScreening.updateRule": (input) => rule(input.id, input.pattern, { enabled: input.enabled }),
      "adminScreening.deleteRule": () => ({ ok: true }),
    });
    await screen.findAllByTestId("rule-row");
    await userEvent.click(screen.getByRole("button", { name: "ルール「ホ別」を編集" }));
    const dialog = await screen.findByRole("dialog", { name: "ルールの編集" });
    expect(within(dialog).getByRole("textbox", { name: /言葉/ })).toHaveValue("ホ別");
    await userEvent.click(within(dialog).getByLabelText("このルールを有効にする"));
    await userEvent.click(within(dialog).getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.screeningRuleSaved)).toBeInTheDocument();
    expect(calls.find((c) => c.path === "adminScreening.updateRule")?.input).toEqual({
      id: "r1",
      kind: "word",
      pattern: "ホ別",
      category: "solicitation",
      action: "hold",
      note: "ホテル代別",
      enabled: false,
    });

    await userEvent.click(screen.getByRole("button", { name: "ルール「ホ別」を削除" }));
    const confirm = await screen.findByRole("dialog", { name: "ルールの削除" });
    await userEvent.click(within(confirm).getByRole("button", { name: "削除する" }));
    expect(await screen.findByText(MSG.screeningRuleDeleted)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminScreening.deleteRule").map((c) => c.input)).toEqual([{ id: "r1" }]);
  });
});
