import { BANNER_MS, MSG } from "@enmusubi/shared";
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../test/render";
import { ReferenceListPage } from "./ReferenceListPage";

const items = [
  { id: "a1", label: "会社員" },
  { id: "b2", label: "学生" },
];

function setup(onAdd = vi.fn(async () => {}), onDelete = vi.fn(async () => {})) {
  renderWithProviders(
    <ReferenceListPage
      title="職業管理"
      itemName="職業"
      inputLabel="職業名"
      placeholder="例"
      messages={{
        empty: MSG.occupationRequired,
        added: MSG.occupationAdded,
        deleted: MSG.occupationDeleted,
        addFailed: MSG.occupationAddFailed,
        deleteFailed: MSG.occupationDeleteFailed,
      }}
      items={items}
      loadError={null}
      onAdd={onAdd}
      onDelete={onDelete}
    />,
  );
  return { onAdd, onDelete };
}

describe("ReferenceListPage", () => {
  it("shows the count and the IDs", () => {
    setup();
    expect(screen.getByTestId("reference-count")).toHaveTextContent("登録件数: 2件");
    expect(screen.getByText("a1")).toBeInTheDocument();
  });

  it("Enter on an empty field gives the list's message and adds nothing", async () => {
    const { onAdd } = setup();
    await userEvent.type(screen.getByLabelText("職業名"), "   {Enter}");
    expect(await screen.findByText(MSG.occupationRequired)).toBeInTheDocument();
    expect(onAdd).not.toHaveBeenCalled();
  });

  it("Enter submits the trimmed name; the success banner vanishes after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const { onAdd } = setup();
      await user.type(screen.getByLabelText("職業名"), "  パイロット {Enter}");
      expect(onAdd).toHaveBeenCalledWith("パイロット");
      expect(await screen.findByText("職業を追加しました。")).toBeInTheDocument();
      expect(screen.getByLabelText("職業名")).toHaveValue("");
      await act(async () => {
        vi.advanceTimersByTime(BANNER_MS + 10);
      });
      expect(screen.queryByText("職業を追加しました。")).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed add shows the server's message", async () => {
    setup(vi.fn(async () => Promise.reject(new Error(MSG.occupationTaken))));
    await userEvent.type(screen.getByLabelText("職業名"), "会社員{Enter}");
    expect(await screen.findByText(MSG.occupationTaken)).toBeInTheDocument();
  });

  it("deletes only after confirmation", async () => {
    const { onDelete } = setup();
    await userEvent.click(screen.getAllByRole("button", { name: "削除" })[1] as HTMLElement);
    expect(await screen.findByText("「学生」を削除しますか？")).toBeInTheDocument();
    expect(onDelete).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "削除する" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith("b2"));
  });
});
